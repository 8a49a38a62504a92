// libFuzzer target: the config file parser. Built and run by fuzz/run.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    do { _ = try Config(parsing: text, file: "config") } catch { precondition(!error.message.isEmpty) }
    return 0
}
