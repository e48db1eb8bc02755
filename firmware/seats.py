"""The seat boxes [issue 7]: one momentary push button and one LED per seat.

Devices only: presses are timestamped and queued here; turning them into
actions through the hub's one path is the consumer's job (not in this module).

- `SeatBox(seat, ...)`: one seat's gpiozero `Button` (pulled up, pressed =
  pin to GND) and its LED: a `DimmedLED` (gpiozero's PWMLED whose "on" is
  the map's brightness) on a GPIO, or an `expander.ExpanderLED` (on/off only).
  Blinking is timed by one shared `Blinker` thread, not a thread per LED.
  The LED language of [issue 7]:
    `off()`      off;
    `waiting()`  slow blink (1 s on / 1 s off): waiting for you;
    `recorded()` solid: your vote is recorded (in lock-in mode: locked,
                 never for whom);
    `speaking()` solid: your turn to speak (the day's turns, a candidate's
                 defence) [issue 34];
    `refused()`  three quick blinks, then back to the state before;
                 whatever the presses, an LED never changes more than six
                 times in any second (three flashes: WCAG 2.3.1) [issue 43];
    `dark()`     the night: off whatever else; `dark(False)` shows the
                 state again. A refusal at night is not shown at all.
- `SeatBoxes(pinmap, pin_factory=None, on_press=None)`: every seat of the map.
  A press callback only takes `time.monotonic_ns()`, debounces and puts a
  `Press(seat, t_ns)` on a `queue.SimpleQueue` (on a real Pi every gpiozero
  callback runs on one thread: nothing slow may happen there). `presses()`
  drains the queue: presses that arrive together come out together, one
  batch. `on_press()`, if given, is called after each enqueue with no
  arguments, on the callback thread: it may only wake the consumer (an
  `Event.set()`), never do the work.

Debounce is in software, because gpiozero's MockFactory ignores
`bounce_time` (and a real line bounces past the RC filter now and then): a
press within `debounce_ms` of the same seat's previous accepted press is
dropped.

gpiozero devices take `pin_factory` (None: gpiozero's own choice, honouring
GPIOZERO_PIN_FACTORY); RPi.GPIO is never imported here.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, NamedTuple, Protocol

from gpiozero import LED, PWMLED, Button
from gpiozero.exc import PinPWMUnsupported

from .expander import Bus, Expanders
from .pinmap import DEFAULT_BRIGHTNESS, ExpanderPin, PinMap, Seat

DEBOUNCE_MS = 30
log = logging.getLogger("werewolf.seats")


@dataclass(frozen=True)
class Timing:
    """The LED language's rhythm, in seconds [issue 7] (tests pass shorter)."""

    wait_on: float = 1.0  # slow blink: waiting for you
    wait_off: float = 1.0
    refuse_on: float = 0.15  # three quick blinks: refused
    refuse_off: float = 0.15
    refuse_blinks: int = 3
    #: WCAG 2.3.1 [issue 43]: at most three flashes (an on and an off each) in
    #: any second, whatever the presses: an LED changes at most
    #: `flash_changes` times in any `flash_window` seconds, a change beyond
    #: that waits (a refusal pressed again and again, a refusal then the slow
    #: blink, made 4 flashes a second before)
    flash_window: float = 1.0
    flash_changes: int = 6

    @property
    def refusal(self) -> float:
        return self.refuse_blinks * (self.refuse_on + self.refuse_off)

    @property
    def resolution(self) -> float:
        """How often the blinker looks at a blinking LED: a quarter of the
        shortest phase, within 2-50 ms."""
        shortest = min(self.wait_on, self.wait_off, self.refuse_on, self.refuse_off)
        return min(0.05, max(0.002, shortest / 4))


class Blinker:
    """One thread blinks every seat box that blinks. gpiozero's blink() runs a
    thread per LED, and every change of a blinking LED joins that thread: 18
    joins, ~6 ms, when a vote closes, under the table's lock. Here a blinking
    box is only looked at every `resolution` seconds and its LED switched
    when its pattern says so; a change of state costs nothing but a set."""

    def __init__(self) -> None:
        self._boxes: set[SeatBox] = set()
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None

    def add(self, box: SeatBox) -> None:
        with self._lock:
            self._boxes.add(box)
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="seat-blinker",
                                                daemon=True)
                self._thread.start()
        self._wake.set()

    def remove(self, box: SeatBox) -> None:
        with self._lock:
            self._boxes.discard(box)

    def _run(self) -> None:
        while True:
            with self._lock:
                boxes = list(self._boxes)
            if not boxes:
                self._wake.wait(1.0)
                self._wake.clear()
                continue
            now = time.monotonic()
            for box in boxes:
                try:
                    box._tick(now)
                except Exception:  # an expander gone quiet: that LED stops, the others go on
                    log.exception("seat %s: its LED stopped blinking", box.number)
                    self.remove(box)
                    box._blinking = False  # a later change of state may try again
            time.sleep(min(box.timing.resolution for box in boxes))


BLINKER = Blinker()  # shared by every seat box of the process


class Led(Protocol):
    """What a seat box needs of its LED: gpiozero's LED/PWMLED or an ExpanderLED."""

    def on(self) -> None: ...
    def off(self) -> None: ...
    def close(self) -> None: ...


class Switch(Protocol):
    """What a seat box needs of its button: gpiozero's `Button` (gpiozero has
    no type hints; this names the part the press path goes through, so mypy
    checks the callback handed to it [issue 15])."""

    when_pressed: Callable[[], None] | None
    #: gpiozero's pin: a MockPin under the MockFactory, which the virtual table drives
    pin: Any

    def close(self) -> None: ...


class DimmedLED(PWMLED):  # type: ignore[misc]  # gpiozero has no type hints
    """gpiozero's PWMLED with "fully on" at `brightness` [issue 7: LEDs are
    dimmed with PWM so they do not light faces in a dark room]: value 1 (on(),
    blink()'s on phase) is a PWM duty of `brightness`, value 0 is off."""

    def __init__(self, pin: Any = None, *, brightness: float = DEFAULT_BRIGHTNESS,
                 pin_factory: Any = None, **kwargs: Any) -> None:
        if not 0 < brightness <= 1:
            raise ValueError(f"brightness {brightness!r} is not above 0 and at most 1")
        self.brightness = brightness
        super().__init__(pin, pin_factory=pin_factory, **kwargs)

    def _value_to_state(self, value: float) -> float:
        return float(value) * self.brightness

    def _state_to_value(self, state: float) -> float:
        return min(1.0, float(state) / self.brightness)


class Press(NamedTuple):
    """One accepted press: the seat (1-based, clockwise) and when
    (time.monotonic_ns() in the callback)."""

    seat: int
    t_ns: int


class SeatBox:
    """One seat's button and LED, and the LED language of [issue 7]."""

    def __init__(self, seat: Seat, *, brightness: float = DEFAULT_BRIGHTNESS,
                 pin_factory: Any = None, expanders: Expanders | None = None,
                 timing: Timing = Timing(), blinker: Blinker = BLINKER) -> None:
        self.seat = seat
        self.number = seat.number
        self.timing = timing
        self.state = "off"  # "off" | "waiting" | "recorded" | "speaking"
        self.is_dark = False
        self.changed_ns = 0  # time.monotonic_ns() when the state was last set
        self._lock = threading.RLock()
        self._blinker = blinker
        self._since = 0.0  # monotonic start of the slow blink
        self._refusal_from: float | None = None  # monotonic start of a refusal
        self._lit = False
        self._blinking = False  # in the blinker's set
        self._changes: deque[float] = deque(maxlen=max(1, timing.flash_changes))  # the LED's last
        self._held = False  # a change the flash limit holds back (the blinker tries again)
        self.button: Switch = Button(seat.button, pull_up=True, bounce_time=None,
                                     pin_factory=pin_factory)
        try:
            self.led: Led = _make_led(seat, brightness, pin_factory, expanders)
        except Exception:
            self.button.close()
            raise

    # -- the LED language ----------------------------------------------------------

    def off(self) -> None:
        """Off [issue 7]."""
        self._set("off")

    def waiting(self) -> None:
        """Slow blink: waiting for you [issue 7]."""
        self._set("waiting")

    def recorded(self) -> None:
        """Solid: your vote is recorded (lock-in: locked, never for whom) [issue 7]."""
        self._set("recorded")

    def speaking(self) -> None:
        """Solid: your turn to speak [issue 34] (the public view names the
        speaker; no vote is open while turns run)."""
        self._set("speaking")

    def refused(self) -> None:
        """Three quick blinks, then back to the state before [issue 7]. Nothing
        at night: the LEDs stay dark."""
        with self._lock:
            if self.is_dark:
                return
            self._refusal_from = time.monotonic()
            self._show()

    def dark(self, dark: bool = True) -> None:
        """The night [issue 7]: the LED stays off whatever else is asked
        (the state is kept, a refusal is not shown); `dark(False)` shows the
        state again."""
        with self._lock:
            self.is_dark = dark
            self._refusal_from = None
            self._show()

    @property
    def refusing(self) -> bool:
        return self._refusal_from is not None

    def _set(self, state: str) -> None:
        with self._lock:
            if state == "waiting" and self.state != "waiting":
                self._since = time.monotonic()  # the blink starts with its on phase
            self.state = state
            self._refusal_from = None
            self._show()
            self.changed_ns = time.monotonic_ns()

    def _lit_at(self, now: float) -> bool:
        """What the LED shows at `now`: the refusal's blinks, else the state."""
        t = self.timing
        if self._refusal_from is not None:
            into = now - self._refusal_from
            if into < t.refusal:
                return into % (t.refuse_on + t.refuse_off) < t.refuse_on
            self._refusal_from = None  # over: back to the state
            if self.state == "waiting":
                self._since = now
        if self.is_dark or self.state == "off":
            return False
        if self.state == "waiting":
            return (now - self._since) % (t.wait_on + t.wait_off) < t.wait_on
        return True

    def _show(self, now: float | None = None) -> None:
        """Switch the LED to what it should show now; blinking boxes are
        watched by the blinker, steady ones are not."""
        now = time.monotonic() if now is None else now
        lit = self._lit_at(now)
        self._held = False
        if lit != self._lit:
            changes = self._changes
            if (not (self.is_dark and not lit) and len(changes) == changes.maxlen
                    and now - changes[0] < self.timing.flash_window):
                self._held = True  # a fourth flash in a second: not yet (nightfall never waits)
            else:
                if lit:
                    self.led.on()
                else:
                    self.led.off()
                self._lit = lit
                changes.append(now)
        blinking = not self.is_dark and (self._refusal_from is not None
                                         or self.state == "waiting" or self._held)
        if blinking != self._blinking:  # the blinker's set changes only when this does
            self._blinking = blinking
            if blinking:
                self._blinker.add(self)
            else:
                self._blinker.remove(self)

    def _tick(self, now: float) -> None:
        with self._lock:
            self._show(now)

    def close(self) -> None:
        with self._lock:
            self._blinker.remove(self)
            self._blinking = False
            self.led.close()
            self.button.close()


def _make_led(seat: Seat, brightness: float, pin_factory: Any,
              expanders: Expanders | None) -> Led:
    if isinstance(seat.led, ExpanderPin):
        if expanders is None:
            raise ValueError(f"seat {seat.number}: LED {seat.led} is on an expander, "
                             "but no expander bus was given")
        return expanders.led(seat.led)
    try:
        return DimmedLED(seat.led, brightness=brightness, pin_factory=pin_factory)
    except PinPWMUnsupported:  # a pin library without PWM: undimmed, but the language works
        undimmed: Led = LED(seat.led, pin_factory=pin_factory)
        return undimmed


class SeatBoxes:
    """Every seat box of a pin map; presses queued with their time [issue 7]."""

    def __init__(self, pinmap: PinMap, pin_factory: Any = None,
                 on_press: Callable[[], None] | None = None, *,
                 bus: Bus | None = None, debounce_ms: float = DEBOUNCE_MS,
                 timing: Timing = Timing()) -> None:
        """`bus`: the I2C bus of the expanders (smbus2.SMBus of the display's
        bus number when the map has expanders and none is given; closed by
        close() only if opened here)."""
        self.pinmap = pinmap
        self.on_press = on_press
        self.debounce_ns = int(debounce_ms * 1_000_000)
        self.queue: queue.SimpleQueue[Press] = queue.SimpleQueue()
        self._last: dict[int, int] = {}  # seat -> t_ns of its last accepted press
        self._last_lock = threading.Lock()
        self._own_bus = False
        self.expanders: Expanders | None = None
        self.boxes: dict[int, SeatBox] = {}
        try:
            if pinmap.expanders:
                if bus is None:
                    from smbus2 import SMBus

                    bus = SMBus(pinmap.display.i2c_bus)
                    self._own_bus = True
                self.expanders = Expanders(bus, pinmap)
                self.expanders.setup()
            for seat in pinmap.seats:
                box = SeatBox(seat, brightness=pinmap.brightness, pin_factory=pin_factory,
                              expanders=self.expanders, timing=timing)
                self.boxes[seat.number] = box
                box.button.when_pressed = self._callback(seat.number)
        except Exception:
            self.close()
            raise

    def _callback(self, number: int) -> Callable[[], None]:
        def pressed() -> None:
            t = time.monotonic_ns()
            with self._last_lock:
                last = self._last.get(number)
                if last is not None and t - last < self.debounce_ns:
                    return  # a bounce of the press just accepted
                self._last[number] = t
            self.queue.put(Press(number, t))
            if self.on_press is not None:
                self.on_press()
        return pressed

    def presses(self, timeout: float | None = 0) -> list[Press]:
        """Every press waiting, oldest first (one batch). With a `timeout`
        (seconds; None: forever) wait that long for the first one; [] if none."""
        out: list[Press] = []
        if timeout is None or timeout > 0:
            try:
                out.append(self.queue.get(timeout=timeout))
            except queue.Empty:
                return out
        while True:
            try:
                out.append(self.queue.get_nowait())
            except queue.Empty:
                return out

    def __getitem__(self, seat: int) -> SeatBox:
        return self.boxes[seat]

    def __iter__(self) -> Iterator[SeatBox]:
        return iter(self.boxes.values())

    def __len__(self) -> int:
        return len(self.boxes)

    def dark(self, dark: bool = True) -> None:
        """Every LED dark for the night, or (False) back to its state [issue 7]."""
        for box in self:
            box.dark(dark)

    def close(self) -> None:
        """Every device closed, every expander LED off, an own bus closed."""
        for box in self.boxes.values():
            box.close()
        self.boxes.clear()
        if self.expanders is not None:
            self.expanders.all_off()
            if self._own_bus:
                self.expanders.bus.close()
            self.expanders = None
