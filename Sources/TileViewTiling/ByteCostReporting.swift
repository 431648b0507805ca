import TileViewCore

/// A value that knows how many bytes it holds, so a byte-budgeted cache can weigh it.
public protocol ByteCostReporting {
    /// The bytes this value keeps alive (its pixel memory for an image).
    var byteCost: Int { get }
}

extension ImageBuffer: ByteCostReporting {
    /// The pixel bytes: width * height * 4.
    public var byteCost: Int { byteCount }
}
