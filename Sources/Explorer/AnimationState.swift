/// An animation's clock as a pure state machine: the time comes in (a
/// monotonic millisecond count), the frame to show and the next wake-up go
/// out. The viewer and `show --once --animate` both play through it.
///
/// Frames keep the file's pace: each shows for its delay (10 ms or less
/// counts as 100 ms, `Frame.playbackDelayMs`), counted from when the last
/// one was due rather than from when it was drawn, so a slow terminal drops
/// frames instead of slowing the animation down; one more than a whole pass
/// behind (a stopped process, a suspended laptop), it starts afresh from
/// now. After `plays` passes (0: for ever) it stops on the last frame.
package struct AnimationState: Equatable, Sendable {
    /// How long each frame shows, in ms (at least 1).
    package let delays: [Int]
    /// Passes to play in all; 0: for ever.
    package let plays: Int
    /// The frame to show.
    package private(set) var frame = 0
    package private(set) var isPaused = false
    /// The last pass ended: the last frame stays until a pause toggle plays it again.
    package private(set) var isFinished = false
    /// Passes completed so far.
    package private(set) var completedPlays = 0
    /// When the frame's time is up; nil before the first tick, while paused and once finished.
    package private(set) var deadline: Int?
    private var started = false

    package init(delays: [Int], plays: Int) {
        precondition(!delays.isEmpty, "an animation has frames")
        self.delays = delays.map { max(1, $0) }
        self.plays = max(0, plays)
    }

    /// One pass, in ms.
    package var passMs: Int { delays.reduce(0, +) }

    /// When the clock next needs a tick: now, if it has not started.
    package func wakeTime(now: Int) -> Int? {
        guard !isPaused, !isFinished else { return nil }
        return started ? deadline : now
    }

    /// Moves on past every frame whose time is up at `now` (the first tick
    /// starts the clock on frame 0). True when the frame shown changed.
    @discardableResult
    package mutating func advance(to now: Int) -> Bool {
        guard !isPaused, !isFinished else { return false }
        guard started, var due = deadline else {
            started = true
            deadline = now + delays[frame]
            return false
        }
        guard now >= due else { return false }
        let before = frame
        while now >= due {
            if frame == delays.count - 1 {
                completedPlays += 1
                if plays > 0 && completedPlays >= plays {
                    isFinished = true
                    deadline = nil
                    return frame != before
                }
                frame = 0
            } else {
                frame += 1
            }
            due += delays[frame]
            if now - due > passMs { due = now + delays[frame] }
        }
        deadline = due
        return frame != before
    }

    /// Pauses, or plays on from the frame shown (which gets its whole
    /// delay again); once finished, plays every pass again from the start.
    package mutating func togglePause(at now: Int) {
        if isFinished {
            isFinished = false
            completedPlays = 0
            frame = 0
            isPaused = false
            deadline = now + delays[frame]
            started = true
        } else if isPaused {
            isPaused = false
            deadline = now + delays[frame]
            started = true
        } else {
            isPaused = true
            deadline = nil
        }
    }

    /// Shows the frame `delta` away (wrapping), pausing first.
    package mutating func step(_ delta: Int) {
        isPaused = true
        isFinished = false
        deadline = nil
        let count = delays.count
        frame = ((frame + delta) % count + count) % count
    }
}
