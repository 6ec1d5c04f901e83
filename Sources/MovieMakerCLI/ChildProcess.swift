import Foundation

/// A child process started the way a program that passes signals on needs: with default actions for
/// the signals moviemaker ignores while it waits (SIGINT, SIGTERM, SIGPIPE), no signal blocked, and
/// as the leader of a process group of its own, so that one `kill(-pid, …)` reaches it and every job
/// it starts.
///
/// Foundation's `Process` cannot do this: the child inherits ignored signals (posix_spawn keeps
/// `SIG_IGN` unless told otherwise), so a compiler driver that does not install handlers of its own
/// — or a wrapper script named by `$SWIFTC` — would never stop on the forwarded signal.
enum ChildProcess {
    /// Why a child could not be started.
    struct LaunchError: Error {
        /// `strerror` of the failure.
        let reason: String
    }

    /// Starts `executable` with `arguments` (not counting argv[0]), this process's environment and
    /// standard streams, and returns its process ID.
    static func spawn(_ executable: URL, arguments: [String]) throws(LaunchError) -> pid_t {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for number in StopSignal.all + [SIGPIPE, SIGXFSZ] { sigaddset(&defaults, number) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP))

        let argv: [UnsafeMutablePointer<CChar>?] = ([executable.path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let status = argv.withUnsafeBufferPointer { buffer in
            posix_spawn(&pid, executable.path, nil, &attributes, buffer.baseAddress!, environ)
        }
        guard status == 0 else { throw LaunchError(reason: String(cString: strerror(status))) }
        return pid
    }

    /// Waits for `pid` to end and returns its exit status, or 128 + the signal that ended it.
    static func wait(for pid: pid_t) -> Int32 {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 {
            if errno != EINTR { return 127 }
        }
        // WIFEXITED / WEXITSTATUS / WTERMSIG are macros Swift does not import; their definitions
        // from <bits/waitstatus.h>.
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : 128 + signal
    }
}
