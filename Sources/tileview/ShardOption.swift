import ArgumentParser
import FoundationEssentials
import TileView

/// `--shard K/N` or `--shard auto` (with `--shards N` for a Kubernetes Indexed Job), as `gallery` and zoom
/// batches take it: every problem is a usage error (exit 64) before anything is read.
enum ShardOption {
    static func resolve(_ text: String?, shards: Int?) throws -> GalleryShard {
        guard let text else {
            if shards != nil { throw ValidationError("--shards N goes with --shard auto") }
            return .whole
        }
        if text == "auto" {
            if let shards, shards < 1 { throw ValidationError("--shards must be at least 1, got \(shards)") }
            switch GalleryShard.fromRunner(environment: ProcessInfo.processInfo.environment, shards: shards) {
            case .success(let shard): return shard
            case .failure(let error): throw ValidationError(error.description)
            }
        }
        if shards != nil { throw ValidationError("--shards N goes with --shard auto, not with --shard K/N") }
        guard let shard = GalleryShard(parsing: text) else {
            throw ValidationError("--shard must be K/N with 0 <= K < N (K counts from 0) or auto, got '\(text)'")
        }
        return shard
    }
}
