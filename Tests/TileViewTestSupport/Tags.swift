import Testing

extension Tag {
    /// A suite that runs one of the project's scripts against outside programs (Chromium, wrk, the IIIF validator,
    /// schemathesis, Slurm, a package build, the probes' Python clients). `scripts/test.sh` runs these after the
    /// others, as the external tier.
    @Tag public static var external: Self
}
