import CImageCodecs
import FoundationEssentials

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Facts about the process and the system it runs on.
public enum SystemInfo {
    /// The number of processors this process may use (at least 1): the processors its affinity mask allows
    /// (`taskset`, a container's cpuset), fewer when a cgroup CPU quota allows less time (`docker --cpus`,
    /// Kubernetes `limits.cpu`: the quota over the period, rounded up), never the machine's count when either
    /// says less. Read once.
    public static let availableProcessors: Int = {
        let online = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        let affinity = Int(tv_affinity_cpu_count())
        let quota = CPUQuota.read()
        return CPUQuota.processors(online: online, affinity: affinity > 0 ? affinity : nil, quota: quota)
    }()

    /// Whether standard error is a terminal (progress lines are shown only then).
    public static var standardErrorIsTerminal: Bool { isatty(2) != 0 }
}

/// A cgroup's CPU bandwidth limit: `quota` microseconds of CPU time in every `period` (cgroup v2 `cpu.max`, v1
/// `cpu.cfs_quota_us` and `cpu.cfs_period_us`).
public struct CPUQuota: Equatable, Sendable {
    public let quota: Int
    public let period: Int

    /// The processors the limit is worth, rounded up (150000 in 100000 is 2).
    public var processors: Int { max(1, (quota + period - 1) / period) }

    /// The limit a cgroup v2 `cpu.max` file states (`"200000 100000"`); nil for `"max ..."` (no limit) and for
    /// text that is not two positive whole numbers.
    public static func parse(cpuMax text: String) -> CPUQuota? {
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\n" })
        guard words.count == 2, let quota = Int(words[0]), let period = Int(words[1]), quota > 0, period > 0 else {
            return nil
        }
        return CPUQuota(quota: quota, period: period)
    }

    /// The limit of cgroup v1's two files (`cfs_quota_us` is -1 when there is none).
    public static func parse(cfsQuota: String, cfsPeriod: String) -> CPUQuota? {
        let trim = { (s: String) in s.split(whereSeparator: \.isWhitespace).first.map(String.init) ?? "" }
        guard let quota = Int(trim(cfsQuota)), let period = Int(trim(cfsPeriod)), quota > 0, period > 0 else {
            return nil
        }
        return CPUQuota(quota: quota, period: period)
    }

    /// The cgroup v2 path of this process from `/proc/self/cgroup`'s `0::PATH` line.
    public static func unifiedPath(procSelfCgroup text: String) -> String? {
        for line in text.split(separator: "\n") where line.hasPrefix("0::") {
            return String(line.dropFirst(3))
        }
        return nil
    }

    /// What the process may use: the affinity mask's count (the machine's when unknown), lowered by a quota.
    public static func processors(online: Int, affinity: Int?, quota: CPUQuota?) -> Int {
        var count = min(online, affinity ?? online)
        if let quota { count = min(count, quota.processors) }
        return max(1, count)
    }

    /// The tightest limit over this process's cgroup and its ancestors (v2), or v1's; nil when none is set or the
    /// files cannot be read.
    static func read() -> CPUQuota? {
        func text(_ path: String) -> String? {
            guard let data = FileManager.default.contents(atPath: path) else { return nil }
            return String(decoding: data, as: UTF8.self)
        }
        var limits: [CPUQuota] = []
        if let own = text("/proc/self/cgroup").flatMap(unifiedPath) {
            var path = own
            while true {
                let folder = "/sys/fs/cgroup" + (path == "/" ? "" : path)
                if let limit = text(folder + "/cpu.max").flatMap({ parse(cpuMax: $0) }) { limits.append(limit) }
                guard path != "/", let slash = path.lastIndex(of: "/") else { break }
                path = slash == path.startIndex ? "/" : String(path[..<slash])
            }
        }
        for v1 in ["/sys/fs/cgroup/cpu", "/sys/fs/cgroup/cpu,cpuacct"] {
            if let quota = text(v1 + "/cpu.cfs_quota_us"), let period = text(v1 + "/cpu.cfs_period_us"),
                let limit = parse(cfsQuota: quota, cfsPeriod: period)
            {
                limits.append(limit)
            }
        }
        return limits.min { $0.processors < $1.processors }
    }
}

/// The text of the current `errno`.
package func errnoText() -> String { String(cString: strerror(errno)) }
