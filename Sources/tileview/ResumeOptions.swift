import ArgumentParser

/// `--resume` and `--clean`, as `gallery`, `feed` and `zoom` (batches and `--frames`) take them (docs/design.md section
/// 13).
struct ResumeOptions: ParsableArguments {
    @Flag(help: "Keep the frames an interrupted run of the same job finished (checked against OUTDIR's journal).")
    var resume = false

    @Flag(help: "Remove numbered frames in OUTDIR that this run does not write (left by a longer earlier run).")
    var clean = false
}
