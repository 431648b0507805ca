import ArgumentParser
import FoundationEssentials
import TileView

/// `--shard K/N` or `--shard auto` (with `--shards N` for a Kubernetes Indexed Job), as `gallery` and zoom
/// batches take them: every problem is a usage error (exit 64) before anything is read.
struct ShardOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Do only shard K of N (K from 0): the frames (zoom: the files) whose index mod N is K; auto: from a Slurm array or a Kubernetes Indexed Job.",
            valueName: "K/N|auto"))
    var shard: String?

    @Option(
        help: ArgumentHelp("With --shard auto in a Kubernetes Indexed Job: N, the Job's completions.", valueName: "N"))
    var shards: Int?

    /// Whether either option was given.
    var isGiven: Bool { shard != nil || shards != nil }

    func validate() throws { _ = try resolve() }

    /// The shard this process does (the whole run without `--shard`).
    func resolve() throws -> GalleryShard {
        guard let shard else {
            if shards != nil { throw ValidationError("--shards N goes with --shard auto") }
            return .whole
        }
        if shard == "auto" {
            if let shards, shards < 1 { throw ValidationError("--shards must be at least 1, got \(shards)") }
            switch GalleryShard.fromRunner(environment: ProcessInfo.processInfo.environment, shards: shards) {
            case .success(let shard): return shard
            case .failure(let error): throw ValidationError(error.description)
            }
        }
        if shards != nil { throw ValidationError("--shards N goes with --shard auto, not with --shard K/N") }
        guard let parsed = GalleryShard(parsing: shard) else {
            throw ValidationError("--shard must be K/N with 0 <= K < N (K counts from 0) or auto, got '\(shard)'")
        }
        return parsed
    }
}
