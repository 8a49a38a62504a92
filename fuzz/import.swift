// libFuzzer target: the import file reader (checked whole before anything is merged).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    do { _ = try ImportFile(parsing: text, file: "import.json") } catch { precondition(!error.message.isEmpty) }
    return 0
}
