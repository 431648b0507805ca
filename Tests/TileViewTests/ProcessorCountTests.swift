import Testing
import TileView

@testable import TileViewSystem

/// The processors a process may use: its affinity mask, lowered by a cgroup CPU quota, never the machine's count
/// when either says less (docs/design.md section 16).
@Suite("Processor count")
struct ProcessorCountTests {
    @Test("cgroup v2 cpu.max: a quota over its period, rounded up; 'max' and nonsense are no limit")
    func cpuMax() {
        #expect(CPUQuota.parse(cpuMax: "200000 100000\n") == CPUQuota(quota: 200_000, period: 100_000))
        #expect(CPUQuota.parse(cpuMax: "150000 100000")?.processors == 2)
        #expect(CPUQuota.parse(cpuMax: "50000 100000")?.processors == 1)
        #expect(CPUQuota.parse(cpuMax: "1200000 100000")?.processors == 12)
        for text in ["max 100000", "", "100000", "-1 100000", "0 100000", "100000 0", "1e5 100000", "a b"] {
            #expect(CPUQuota.parse(cpuMax: text) == nil, "\(text)")
        }
    }

    @Test("cgroup v1: cfs_quota_us -1 is no limit; a quota counts as v2's")
    func cfs() {
        #expect(CPUQuota.parse(cfsQuota: "-1\n", cfsPeriod: "100000\n") == nil)
        #expect(CPUQuota.parse(cfsQuota: "300000\n", cfsPeriod: "100000\n")?.processors == 3)
    }

    @Test("the cgroup v2 path is /proc/self/cgroup's 0:: line")
    func unifiedPath() {
        let hybrid = "12:cpu,cpuacct:/docker/abc\n0::/system.slice/tileview.service\n"
        #expect(CPUQuota.unifiedPath(procSelfCgroup: hybrid) == "/system.slice/tileview.service")
        #expect(CPUQuota.unifiedPath(procSelfCgroup: "4:memory:/x\n") == nil)
    }

    @Test("the count is the smallest of the machine's, the affinity mask's and the quota's, and at least 1")
    func smallest() {
        let two = CPUQuota(quota: 200_000, period: 100_000)
        #expect(CPUQuota.processors(online: 16, affinity: 12, quota: nil) == 12)
        #expect(CPUQuota.processors(online: 16, affinity: 12, quota: two) == 2)
        #expect(CPUQuota.processors(online: 16, affinity: nil, quota: nil) == 16)
        #expect(CPUQuota.processors(online: 4, affinity: 8, quota: CPUQuota(quota: 800_000, period: 100_000)) == 4)
        #expect(CPUQuota.processors(online: 1, affinity: 0, quota: nil) == 1)
        #expect(SystemInfo.availableProcessors >= 1)
    }
}

/// An operator's `GLIBC_TUNABLES` thresholds win over the ones `Allocator` sets (docs/serving.md).
@Suite("Allocator thresholds")
struct AllocatorThresholdTests {
    @Test("a threshold named in GLIBC_TUNABLES is the operator's; other tunables and look-alikes are not")
    func operatorNamed() {
        let both = Allocator.operatorNamed("glibc.malloc.mmap_threshold=4194304:glibc.malloc.trim_threshold=8388608")
        #expect(both == (true, true))
        #expect(Allocator.operatorNamed("glibc.malloc.trim_threshold=1") == (false, true))
        #expect(Allocator.operatorNamed("glibc.malloc.arena_max=2:glibc.malloc.mmap_threshold=1") == (true, false))
        for text in [
            "", "glibc.malloc.arena_max=2", "glibc.malloc.mmap_threshold_x=1", "xglibc.malloc.trim_threshold=1",
        ] {
            #expect(Allocator.operatorNamed(text) == (false, false), "\(text)")
        }
    }
}
