import Foundation

/// Runs the built `tileview` binary, as a user would, and captures what it prints.
public enum CommandRunner {
    public struct Result: Sendable, CustomStringConvertible {
        public let status: Int32
        public let stdout: String
        public let stderr: String
        public var description: String { "exit \(status)\nstdout: \(stdout)\nstderr: \(stderr)" }
    }

    /// The `tileview` executable beside the test bundle in the build folder.
    public static let executable: URL = {
        var dir = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        // The test runner is `<build>/tileviewPackageTests.xctest` (a file on Linux, a bundle on macOS).
        for _ in 0..<4 {
            let candidate = dir.appendingPathComponent("tileview")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            dir = dir.deletingLastPathComponent()
        }
        fatalError("cannot find the tileview executable near \(CommandLine.arguments[0]); run `swift build` first")
    }()

    /// Runs `tileview` with `arguments` in `directory` (default: a scratch folder is not made; the current one).
    /// With a `timeout`, a run still going after that many seconds is killed (SIGKILL: status 9 by signal, and
    /// the test sees a non-zero status instead of hanging). `signals` are sent while it runs, each that many
    /// seconds after the start (a signal that ends it is reported as the status, e.g. 9 for SIGKILL). With
    /// `signalWhen`, its signals are sent once its condition holds (checked every millisecond while the process runs), 10 ms
    /// apart. With
    /// `environment`, the process gets exactly that environment.
    public static func run(
        _ arguments: [String], in directory: URL? = nil, timeout: Double? = nil,
        signals: [(seconds: Double, signal: Int32)] = [],
        signalWhen: (signals: [Int32], condition: @Sendable () -> Bool)? = nil, environment: [String: String]? = nil
    ) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let environment { process.environment = environment }
        if let directory { process.currentDirectoryURL = directory }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let pid = process.processIdentifier
        if let timeout {
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout) {
                if process.isRunning { kill(pid, SIGKILL) }
            }
        }
        for (seconds, signal) in signals {
            DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
                if process.isRunning { kill(pid, signal) }
            }
        }
        if let (signals, condition) = signalWhen {
            // A thread of its own: Dispatch's pool can be busy with other tests' blocking reads for longer than a
            // whole run takes.
            let watcher = Thread {
                while process.isRunning {
                    if condition() {
                        for (n, signal) in signals.enumerated() {
                            if n > 0 { usleep(10_000) }
                            kill(pid, signal)
                        }
                        return
                    }
                    usleep(1000)
                }
            }
            watcher.start()
        }
        // Read both pipes while the process runs so a large output cannot block it.
        nonisolated(unsafe) var errData = Data()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errData = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus,
            stdout: String(decoding: outData, as: UTF8.self),
            stderr: String(decoding: errData, as: UTF8.self))
    }

    /// Runs one of the project's scripts (`scripts/NAME`) with `arguments`, `TILEVIEW` naming the built binary
    /// and `environment` added; the exit status and standard output and error together.
    public static func script(
        _ name: String, _ arguments: [String] = [], environment: [String: String] = [:]
    ) throws -> (status: Int32, output: String) {
        try program(
            Fixtures.packageRoot.appendingPathComponent("scripts").appendingPathComponent(name).path, arguments,
            environment: environment.merging(["TILEVIEW": executable.path]) { old, _ in old })
    }

    /// Runs the program at `path` (or, when `path` has no slash, the one of that name on the `PATH`) with
    /// `arguments` and `environment` added to this process's; the exit status and standard output and error
    /// together.
    public static func program(
        _ path: String, _ arguments: [String] = [], environment: [String: String] = [:]
    ) throws -> (status: Int32, output: String) {
        let process = Process()
        if path.contains("/") {
            process.executableURL = URL(fileURLWithPath: path)
            process.arguments = arguments
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [path] + arguments
        }
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }
}
