import Testing

extension Tag {
    /// A suite that runs one of the project's scripts against outside programs (Chromium, wrk, the IIIF validator,
    /// schemathesis, Slurm, a package build, the probes' Python clients). `scripts/test.sh` runs these after the
    /// others, as the external tier.
    @Tag public static var external: Self
    /// An external suite whose checks need the machine to itself: a load test, where every answer must be 2xx, would
    /// see the server refuse with 503 (as it should when its queue is full) while Chromium, schemathesis and other
    /// servers share two cores. `scripts/test.sh` runs each after the external tier, on its own.
    @Tag public static var alone: Self
}
