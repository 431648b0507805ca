// Tests for TileViewCLI.
