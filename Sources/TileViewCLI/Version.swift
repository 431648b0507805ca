/// The version `tileview --version` and `tileview-serve --version` print.
public enum TileViewVersion {
    public static let string = "0.1.0"
}
