import Foundation

/// A standalone SVG: ns per lookup per router and set (log scale), and lookups/s against
/// threads per router on one set.
enum SVGReport {
    static let colors: [RouterKind: String] = [
        .fastRouterC: "#1f77b4", .fastRouterMatcher: "#2ca02c", .fastRouterSwift: "#17becf",
        .routingKit: "#d62728", .r3: "#ff7f0e",
    ]

    static func render(_ report: RunReport) -> String {
        // A set's rows with methods are a group of their own, right after the set's.
        let groups = report.sets.flatMap { set -> [SetReport] in
            guard let methods = set.withMethods else { return [set] }
            var withMethods = SetReport(name: "\(set.name) +methods", kind: set.kind, summary: set.summary,
                                        origin: set.origin, routes: methods.routes, requests: methods.requests)
            withMethods.routers = methods.routers
            return [set, withMethods]
        }
        let sets = groups.filter { set in set.routers.contains { $0.status == .measured } }
        let kinds = RouterKind.allCases.filter { kind in sets.contains { $0.router(kind)?.status == .measured } }
        let groupWidth = Double(max(kinds.count, 1)) * 14 + 18
        let left = 70.0, top = 50.0, plotHeight = 300.0
        let barsWidth = max(Double(sets.count) * groupWidth, 300)
        let width = left + barsWidth + 200
        let scalingTop = top + plotHeight + 120
        let scalingHeight = 240.0
        let height = scalingTop + scalingHeight + 70
        var svg: [String] = []
        svg.append(#"<svg xmlns="http://www.w3.org/2000/svg" width="\#(Int(width))" height="\#(Int(height))" viewBox="0 0 \#(Int(width)) \#(Int(height))" font-family="Helvetica, Arial, sans-serif" font-size="11">"#)
        svg.append(#"<rect width="100%" height="100%" fill="white"/>"#)
        svg.append(text(left, 22, "ns per lookup, one thread (median CPU time; log scale; lower is better)", size: 14, weight: "bold"))
        svg.append(text(left, 38, escape(report.machine.summary), size: 10, fill: "#555"))

        // Log-scale axis from a decade under the fastest to a decade over the slowest figure.
        let values = sets.flatMap { set in kinds.compactMap { set.router($0)?.nanosecondsPerLookup } }.filter { $0 > 0 }
        let low = floor(log10(values.min() ?? 1)), high = ceil(log10(values.max() ?? 10))
        let decades = max(high - low, 1)
        func y(_ value: Double) -> Double { top + plotHeight - (log10(max(value, pow(10, low))) - low) / decades * plotHeight }
        for step in 0...Int(decades) {
            let value = pow(10, low + Double(step))
            svg.append(line(left, y(value), left + barsWidth, y(value), stroke: "#ddd"))
            svg.append(text(left - 6, y(value) + 4, value >= 1 ? String(format: "%.0f", value) : String(format: "%g", value), anchor: "end"))
        }
        svg.append(line(left, top, left, top + plotHeight, stroke: "#333"))
        for (setIndex, set) in sets.enumerated() {
            let x0 = left + Double(setIndex) * groupWidth + 9
            for (kindIndex, kind) in kinds.enumerated() {
                guard let value = set.router(kind)?.nanosecondsPerLookup, set.router(kind)?.status == .measured else { continue }
                let x = x0 + Double(kindIndex) * 14
                svg.append(#"<rect x="\#(f(x))" y="\#(f(y(value)))" width="12" height="\#(f(top + plotHeight - y(value)))" fill="\#(colors[kind]!)"><title>\#(escape(set.name)) — \#(kind.rawValue): \#(Format.ns(value))</title></rect>"#)
            }
            let labelX = x0 + Double(kinds.count) * 7
            svg.append(#"<text x="\#(f(labelX))" y="\#(f(top + plotHeight + 14))" text-anchor="end" transform="rotate(-35 \#(f(labelX)) \#(f(top + plotHeight + 14)))">\#(escape(set.name))</text>"#)
        }
        for (index, kind) in kinds.enumerated() {
            let y0 = top + Double(index) * 18
            svg.append(#"<rect x="\#(f(left + barsWidth + 20))" y="\#(f(y0))" width="12" height="12" fill="\#(colors[kind]!)"/>"#)
            svg.append(text(left + barsWidth + 38, y0 + 10, kind.rawValue))
        }

        // Thread scaling on the GitHub set (or the first set measured on several threads).
        let scalingSet = sets.first { $0.name == "github" } ?? sets.first { set in set.routers.contains { $0.threads.count > 1 } }
        if let scalingSet {
            svg.append(text(left, scalingTop - 20, "lookups per second against threads, \(escape(scalingSet.name)) set (higher is better)", size: 14, weight: "bold"))
            let maxThreads = max(report.settings.maxThreads, 1)
            let peak = scalingSet.routers.flatMap { $0.threads.map(\.lookupsPerSecond) }.max() ?? 1
            let plotWidth = min(barsWidth, 420)
            func sx(_ threads: Int) -> Double { left + (maxThreads == 1 ? plotWidth / 2 : Double(threads - 1) / Double(maxThreads - 1) * plotWidth) }
            func sy(_ rate: Double) -> Double { scalingTop + scalingHeight - rate / (peak * 1.1) * scalingHeight }
            for step in 0...4 {
                let rate = peak * 1.1 * Double(step) / 4
                svg.append(line(left, sy(rate), left + plotWidth, sy(rate), stroke: "#ddd"))
                svg.append(text(left - 6, sy(rate) + 4, rate == 0 ? "0" : Format.mega(rate) + " M", anchor: "end"))
            }
            for threads in 1...maxThreads {
                svg.append(text(sx(threads), scalingTop + scalingHeight + 16, "\(threads)", anchor: "middle"))
            }
            svg.append(text(left + plotWidth / 2, scalingTop + scalingHeight + 32, "threads", anchor: "middle"))
            for (index, router) in scalingSet.routers.enumerated() where !router.threads.isEmpty {
                let color = colors[router.router]!
                let points = router.threads.map { "\(f(sx($0.threads))),\(f(sy($0.lookupsPerSecond)))" }.joined(separator: " ")
                svg.append(#"<polyline points="\#(points)" fill="none" stroke="\#(color)" stroke-width="2"/>"#)
                for figure in router.threads {
                    svg.append(#"<circle cx="\#(f(sx(figure.threads)))" cy="\#(f(sy(figure.lookupsPerSecond)))" r="3" fill="\#(color)"><title>\#(router.router.rawValue), \#(figure.threads) threads: \#(Format.mega(figure.lookupsPerSecond)) M lookups/s</title></circle>"#)
                }
                let y0 = scalingTop + Double(index) * 18
                svg.append(#"<rect x="\#(f(left + plotWidth + 20))" y="\#(f(y0))" width="12" height="12" fill="\#(color)"/>"#)
                svg.append(text(left + plotWidth + 38, y0 + 10, router.router.rawValue))
            }
        }
        svg.append("</svg>")
        return svg.joined(separator: "\n") + "\n"
    }

    private static func f(_ value: Double) -> String { String(format: "%.1f", value) }

    private static func text(_ x: Double, _ y: Double, _ content: String, size: Int = 11, weight: String = "normal",
                             anchor: String = "start", fill: String = "#222") -> String {
        #"<text x="\#(f(x))" y="\#(f(y))" font-size="\#(size)" font-weight="\#(weight)" text-anchor="\#(anchor)" fill="\#(fill)">\#(content)</text>"#
    }

    private static func line(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, stroke: String) -> String {
        #"<line x1="\#(f(x1))" y1="\#(f(y1))" x2="\#(f(x2))" y2="\#(f(y2))" stroke="\#(stroke)"/>"#
    }

    private static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}
