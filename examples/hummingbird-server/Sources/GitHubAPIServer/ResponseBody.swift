/// The example's responses: `{"route":"GET /users/:user","params":{"user":"octocat"}}`.
enum ResponseBody {
    static func json(route: String, parameters: some Sequence<(Substring, Substring)>) -> String {
        var json = #"{"route":"#
        appendString(route, to: &json)
        json += #","params":{"#
        var first = true
        for (name, value) in parameters {
            if !first { json += "," }
            first = false
            appendString(name, to: &json)
            json += ":"
            appendString(value, to: &json)
        }
        json += "}}"
        return json
    }

    private static func appendString(_ text: some StringProtocol, to json: inout String) {
        json += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": json += "\\\""
            case "\\": json += "\\\\"
            case _ where scalar.value < 0x20: json += "\\u00" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16)
            default: json.unicodeScalars.append(scalar)
            }
        }
        json += "\""
    }
}
