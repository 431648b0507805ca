import Testing
import TileViewGallery

/// `--shard auto`: the shard from a Slurm array's or a Kubernetes Indexed Job's environment.
@Suite("Shards from job runners")
struct ShardRunnerTests {
    func shard(_ environment: [String: String], shards: Int? = nil) -> Result<GalleryShard, GalleryShard.RunnerError> {
        GalleryShard.fromRunner(environment: environment, shards: shards)
    }

    @Test("Slurm arrays: K = task id - first task id, N = task count, whatever the first id")
    func slurm() throws {
        for first in [0, 1, 5] {
            for k in 0..<8 {
                let environment = [
                    "SLURM_ARRAY_TASK_ID": "\(first + k)", "SLURM_ARRAY_TASK_MIN": "\(first)",
                    "SLURM_ARRAY_TASK_COUNT": "8",
                ]
                #expect(try shard(environment).get() == GalleryShard(index: k, count: 8))
            }
        }
        // Slurm wins over Kubernetes; --shards must agree with the task count.
        let both = ["SLURM_ARRAY_TASK_ID": "2", "SLURM_ARRAY_TASK_COUNT": "4", "JOB_COMPLETION_INDEX": "0"]
        #expect(try shard(both).get() == GalleryShard(index: 2, count: 4))
        #expect(throws: GalleryShard.RunnerError.self) { try shard(both, shards: 3).get() }
        // A stepped array (--array=0-14:2) is not contiguous: task 14 of 8 is refused.
        let stepped = ["SLURM_ARRAY_TASK_ID": "14", "SLURM_ARRAY_TASK_MIN": "0", "SLURM_ARRAY_TASK_COUNT": "8"]
        #expect(throws: GalleryShard.RunnerError.self) { try shard(stepped).get() }
        #expect(throws: GalleryShard.RunnerError.self) { try shard(["SLURM_ARRAY_TASK_ID": "x"]).get() }
    }

    @Test("Kubernetes Indexed Jobs: K = JOB_COMPLETION_INDEX, N = --shards")
    func kubernetes() throws {
        #expect(try shard(["JOB_COMPLETION_INDEX": "3"], shards: 5).get() == GalleryShard(index: 3, count: 5))
        #expect(throws: GalleryShard.RunnerError.self) { try shard(["JOB_COMPLETION_INDEX": "3"]).get() }
        #expect(throws: GalleryShard.RunnerError.self) { try shard(["JOB_COMPLETION_INDEX": "5"], shards: 5).get() }
        #expect(throws: GalleryShard.RunnerError.self) { try shard(["JOB_COMPLETION_INDEX": "-1"], shards: 5).get() }
    }

    @Test("no runner: an error naming both ways")
    func none() {
        guard case .failure(let error) = shard(["HOME": "/root"]) else {
            Issue.record("a shard without a runner")
            return
        }
        #expect(error.description.contains("SLURM_ARRAY_TASK_ID") && error.description.contains("JOB_COMPLETION_INDEX"))
    }
}
