// libFuzzer target: the search query builder. Built and run by fuzz/run.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    do {
        let query = try SearchQuery(parsing: text)
        // Only quoted strings and stars reach FTS5: no operator, column filter or bracket.
        var inString = false
        for scalar in query.expression.unicodeScalars {
            if scalar == "\"" { inString.toggle(); continue }
            if !inString { precondition(scalar == " " || scalar == "*", "syntax outside a string: \(query.expression)") }
        }
        precondition(!inString)
    } catch {
        precondition(!error.message.isEmpty)
    }
    return 0
}
