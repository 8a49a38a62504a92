// libFuzzer target: the reminder SPEC parser. Built and run by fuzz/run.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    do {
        let spec = try ReminderSpec(parsing: text)
        let again = try ReminderSpec(parsing: spec.description)
        precondition(again == spec, "\(spec) does not read back")
    } catch {
        precondition(!error.message.isEmpty)
    }
    return 0
}
