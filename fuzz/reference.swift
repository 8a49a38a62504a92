// libFuzzer target: the reference parser. Built and run by fuzz/run.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    do {
        let reference = try Reference(parsing: text)
        // Whatever parses, prints in a canonical form that parses back to the same passage.
        let again = try Reference(parsing: reference.description)
        precondition(again == reference, "\(reference) does not read back")
    } catch {
        precondition(!error.message.isEmpty)
    }
    return 0
}
