// The pager long output goes through on a terminal, as git's does: `$PAGER` (default `less`,
// with `LESS=FRX` unless set: one screen or less is printed and left, colours pass, the screen
// is not cleared). Not on a pipe, not for JSON, not with PAGER=cat or an empty PAGER, not on a
// dumb terminal or one without TERM.
#if canImport(Glibc)
import Glibc
#endif
import MannaKit

public enum Pager {
    /// Starts the pager with its stdin a pipe and makes this process's stdout that pipe; returns
    /// what restores stdout and waits for the pager to end (the reader has then seen it all, or
    /// quit). Nil when there is no pager to start: output then goes to the terminal as it is.
    public static func start(environment: Environment) -> (() -> Void)? {
        let command = (environment["PAGER"] ?? "less").trimmingSpaces
        guard !command.isEmpty, command != "cat" else { return nil }
        // A terminal that does not say what it is, or says it is dumb, cannot be paged.
        guard let kind = environment["TERM"], !kind.isEmpty, kind != "dumb" else { return nil }
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, ends[0], 0)
        posix_spawn_file_actions_addclose(&actions, ends[0])
        posix_spawn_file_actions_addclose(&actions, ends[1])
        var entries = environment.entries
        if environment["LESS"] == nil { entries.append("LESS=FRX") }
        let words: [String] = ["/bin/sh", "-c", "exec " + command]
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = entries.map { strdup($0) } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, "/bin/sh", &actions, nil, argv, envp)
        close(ends[0])
        guard spawned == 0 else {
            close(ends[1])
            return nil
        }
        let terminal = dup(1)
        dup2(ends[1], 1)
        close(ends[1])
        return {
            // The pager sees the end of its input once stdout is the terminal again.
            dup2(terminal, 1)
            close(terminal)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        }
    }
}
