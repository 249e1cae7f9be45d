import Foundation

/// Number formats shared by the table, the targets and the SVG.
enum Format {
    static func ns(_ value: Double) -> String {
        value < 100 ? String(format: "%.1f ns", value) : String(format: "%.0f ns", value)
    }

    static func number(_ value: Double) -> String {
        value < 10 ? String(format: "%.2f", value) : value < 100 ? String(format: "%.1f", value) : String(format: "%.0f", value)
    }

    static func ratio(_ value: Double) -> String {
        value < 10 ? String(format: "%.2f×", value) : String(format: "%.1f×", value)
    }

    static func allocations(_ value: Double) -> String {
        value == 0 ? "0" : String(format: "%.2f", value)
    }

    static func seconds(_ value: Double) -> String {
        value < 1 ? String(format: "%.0f ms", value * 1000) : String(format: "%.2f s", value)
    }

    static func milliseconds(_ value: Double) -> String {
        let ms = value * 1000
        return ms < 10 ? String(format: "%.2f", ms) : ms < 100 ? String(format: "%.1f", ms) : String(format: "%.0f", ms)
    }

    static func bytes(_ value: Double) -> String { String(format: "%.0f B", value) }

    static func micro(_ value: Double) -> String {
        value < 10 ? String(format: "%.1f µs", value) : String(format: "%.0f µs", value)
    }

    static func percent(_ value: Double) -> String { String(format: "%.1f%%", value * 100) }

    /// Millions of lookups per second.
    static func mega(_ value: Double) -> String {
        value >= 100e6 ? String(format: "%.0f", value / 1e6) : value >= 1e6 ? String(format: "%.1f", value / 1e6)
            : String(format: "%.3f", value / 1e6)
    }
}

/// Fixed-width text columns: the first `leftColumns` left-aligned, the rest right-aligned.
struct TextTable {
    var header: [String]
    var rows: [[String]] = []
    var leftColumns = 1

    func render(indent: String = "  ") -> String {
        let columns = header.count
        var widths = header.map(\.count)
        for row in rows where row.count > 1 {
            for (index, cell) in row.prefix(columns).enumerated() { widths[index] = max(widths[index], cell.count) }
        }
        func line(_ cells: [String]) -> String {
            var text = indent
            for index in 0..<columns {
                let cell = index < cells.count ? cells[index] : ""
                let padding = String(repeating: " ", count: widths[index] - cell.count)
                text += (index == 0 ? "" : "  ") + (index < leftColumns ? cell + padding : padding + cell)
            }
            return text
        }
        return ([line(header)] + rows.map { row in
            // A row with a single cell is a note spanning the table.
            row.count == 1 ? indent + row[0] : line(row)
        }).joined(separator: "\n")
    }
}
