/// The channels of a `<traceFormat>`: what each value of a trace point means (InkML §3.1).
///
/// Only four channels become part of a `Stroke`: X and Y (required, regular), T (time) and F
/// (force). Every other channel (OTx, OTy, W, S, B1 …) is read for its syntax and dropped.
struct InkMLTraceFormat: Equatable {
    /// Channels every point gives a value for, in order.
    var regular: [InkMLChannel]
    /// Channels a point may give values for after the regular ones; their values are dropped.
    var intermittentCount: Int

    /// The default format when a document declares none: X then Y, decimal (InkML §3.1.3).
    static let standard = InkMLTraceFormat(
        regular: [InkMLChannel(role: .x, name: "X"), InkMLChannel(role: .y, name: "Y")],
        intermittentCount: 0)

    /// Index of the regular channel with `role`, if any.
    func index(of role: InkMLChannel.Role) -> Int? {
        regular.firstIndex { $0.role == role }
    }

    /// "X Y T", for messages.
    var channelList: String {
        regular.map(\.name).joined(separator: " ")
    }
}

/// One `<channel>` with what the reader needs to map its values.
struct InkMLChannel: Equatable {
    /// Which stroke channel the values feed.
    enum Role: Equatable {
        case x, y, time, force
        /// Any other channel: values are read and dropped.
        case ignored
    }

    /// `type` (InkML §3.1.2); booleans cannot feed coordinates, times or forces.
    enum ValueType: String, Equatable {
        case decimal, integer, double, boolean
    }

    var role: Role
    /// The name as written, for messages.
    var name: String
    var type: ValueType = .decimal
    /// `min`, when given.
    var minimum: Double?
    /// `max`, when given: with it, F values are scaled from `minimum ?? 0`…`max` to 0…1.
    var maximum: Double?
    /// `orientation="-ve"`: X grows to the left or Y upward, so values are negated to keep
    /// the stroke's x to the right and y down.
    var negated = false
    /// Milliseconds per unit of a T channel (`units`: `ms` 1, `s` 1000, `us` 0.001).
    var millisecondsPerUnit = 1.0
}
