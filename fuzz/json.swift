// libFuzzer target: the JSON parser (timeline, plans, notification requests, import files).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    do {
        let value = try JSON(parsing: text)
        // What parses, writes back as text that parses to the same value.
        let again = try JSON(parsing: value.text)
        precondition(again == value)
    } catch {
        precondition(!error.message.isEmpty)
    }
    return 0
}
