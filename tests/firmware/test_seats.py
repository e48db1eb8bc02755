"""The seat boxes ([issue 7] Seat boxes, LED language) on gpiozero's
MockFactory: get pin -> build device -> drive_low()/drive_high() -> assert.
Every LED pattern on a PWM pin (its duty = the map's brightness) and on an
expander (fake bus), refusals, the night, debounce, and 18 seats pressed at
once from 18 threads."""

from __future__ import annotations

import itertools
import threading
import time
from pathlib import Path

import pytest
from companion.firmware import pinmap, seats
from companion.firmware.expander import OLATA, OLATB
from companion.firmware.pinmap import ExpanderPin, PinMap, Seat
from gpiozero.pins.mock import MockFactory
from slowness import factor, wait_s

from .conftest import FakeBus

ROOT = Path(__file__).resolve().parents[2]
#: The tests' rhythm is the real one sped up, and every time in them (phases,
#: sleeps, bounds on a phase's length) is the quiet machine's times K, the
#: machine's slowness: a busy machine's blinker thread lags its timer by tens
#: of ms, which a 20 ms phase cannot absorb; the patterns are the same [issue 45]
K = factor()
#: (the flash limit scaled to the fast rhythm: 6 changes in any 0.1 s)
FAST = seats.Timing(wait_on=0.05 * K, wait_off=0.05 * K, refuse_on=0.02 * K,
                    refuse_off=0.02 * K, flash_window=0.1 * K)
SEAT = Seat(1, 4, 17)  # seat 1 of the default map: button GPIO4, LED GPIO17



def _duties(pin) -> list[float]:
    """The pin's successive states, repeats folded."""
    out: list[float] = []
    for state in pin.states:
        if not out or out[-1] != state.state:
            out.append(state.state)
    return out


def _box(factory, timing: seats.Timing = FAST, brightness: float = 0.3) -> seats.SeatBox:
    return seats.SeatBox(SEAT, brightness=brightness, pin_factory=factory, timing=timing)


def test_a_seat_box_is_a_pulled_up_button_and_a_dimmed_led(factory):
    """[issue 7]: the button reads pressed when its line goes to GND; the LED
    starts off and lights at the map's brightness as its PWM duty."""
    box = _box(factory, brightness=0.25)
    button, led = factory.pin(4), factory.pin(17)
    assert button.pull == "up" and not box.button.is_pressed
    button.drive_low()
    assert box.button.is_pressed
    button.drive_high()
    assert led.state == 0 and box.state == "off"
    box.recorded()
    assert led.state == pytest.approx(0.25)
    assert led.frequency == 100
    box.off()
    assert led.state == 0
    box.close()


def test_waiting_is_a_slow_blink_at_the_maps_brightness(factory):
    """[issue 7]: slow blink = waiting for you: on and off in turn, each for
    its time (1 s / 1 s by default), on at the PWM duty of the brightness."""
    assert (seats.Timing().wait_on, seats.Timing().wait_off) == (1.0, 1.0)
    box = _box(factory)
    led = factory.pin(17)
    led.clear_states()
    box.waiting()
    time.sleep(0.32 * K)
    box.off()
    duties = _duties(led)
    assert duties[:6] == [0, pytest.approx(0.3), 0, pytest.approx(0.3), 0, pytest.approx(0.3)]
    assert duties[-1] == 0
    # each phase lasts its time: the pattern keeps the clock from its start, so
    # a change falls on its boundary, never before it; a busy machine's blinker
    # may be late to one (the next is then shorter: it catches up), by four
    # phases at most (the timestamps are the gaps between changes) [issue 45]
    gaps = [s.timestamp for s in led.states[2:5]]
    phase = FAST.wait_on
    assert FAST.wait_off == phase
    for k, at in enumerate(itertools.accumulate(gaps), 1):
        assert k * phase - 0.01 * K <= at <= (k + 4) * phase, (k, gaps)
    box.close()


def test_recorded_is_solid(factory):
    """[issue 7]: solid = your vote is recorded (lock-in: locked): lit, and it
    stays lit without changing."""
    box = _box(factory)
    led = factory.pin(17)
    box.waiting()
    box.recorded()
    led.clear_states()
    time.sleep(0.15 * K)
    assert led.state == pytest.approx(0.3)
    assert len(led.states) == 1  # no change since: solid
    box.close()


@pytest.mark.parametrize("before", ["off", "recorded", "waiting"])
def test_refused_is_three_quick_blinks_then_back(factory, before):
    """[issue 7]: three quick blinks = refused, then the LED shows what it
    showed before (off, solid, or the slow blink again)."""
    # phases of 50 ms: short, yet longer than a loaded machine's scheduling lag
    # (the blinker samples the time; a 20 ms phase could fall between two samples)
    timing = seats.Timing(wait_on=0.6 * K, wait_off=0.6 * K, refuse_on=0.05 * K,
                          refuse_off=0.05 * K)
    box = _box(factory, timing)
    led = factory.pin(17)
    getattr(box, before)()
    led.clear_states()
    box.refused()
    assert box.refusing
    time.sleep(timing.refusal + 0.06 * K)
    assert not box.refusing and box.state == before
    on = pytest.approx(0.3)
    blinks = [on, 0, on, 0, on, 0]
    limit = time.monotonic() + wait_s(2.0)  # a loaded machine's blink thread may lag its timer
    while len(_duties(led)) < 7 and time.monotonic() < limit:
        time.sleep(0.01)
    duties = _duties(led)
    start = 1 if duties[0] == 0 else 0  # from off, the first change is the first blink
    assert duties[start:start + 6] == blinks
    after = duties[start + 6:]
    if before == "off":
        assert after == []
    elif before == "recorded":
        assert after == [on]
    else:
        assert after == [on]  # the slow blink's first on phase (0.6 s)
    quick = [s.timestamp for s in led.states[start + 1:start + 6]]
    assert all(gap < 0.15 * K for gap in quick), quick  # quick: well under the slow blink's
    box.close()


def test_a_change_during_a_refusal_wins(factory):
    """[issue 7]: a vote recorded while the refusal blinks shows at once, and
    the refusal's end does not take it back."""
    timing = seats.Timing(refuse_on=0.05 * K, refuse_off=0.05 * K)
    box = _box(factory, timing)
    led = factory.pin(17)
    box.refused()
    time.sleep(0.03 * K)
    box.recorded()
    assert led.state == pytest.approx(0.3)
    time.sleep(timing.refusal)
    assert led.state == pytest.approx(0.3) and box.state == "recorded"
    box.close()


def test_dark_overrides_everything(factory):
    """[issue 7]: all LEDs stay dark at night: whatever is asked meanwhile,
    nothing lights (a refusal is not shown); dark(False) shows the state."""
    box = _box(factory)
    led = factory.pin(17)
    box.recorded()
    box.dark()
    assert led.state == 0 and box.is_dark
    led.clear_states()
    box.waiting()
    box.refused()
    box.recorded()
    time.sleep(FAST.refusal + 0.1 * K)
    assert _duties(led) == [0]  # never lit
    box.dark(False)
    assert led.state == pytest.approx(0.3)  # the state kept through the night
    box.refused()
    box.dark()
    time.sleep(FAST.refusal + 0.05 * K)
    assert led.state == 0  # a refusal cut by nightfall does not light the LED again
    box.close()


def test_dark_cuts_a_refusal_and_a_blink(factory):
    """[issue 7]: nightfall during a slow blink stops it at once."""
    box = _box(factory)
    led = factory.pin(17)
    box.waiting()
    time.sleep(0.02 * K)
    box.dark()
    led.clear_states()
    time.sleep(0.15 * K)
    assert _duties(led) == [0]
    box.close()


def test_seat_boxes_of_the_default_map(factory):
    """[issue 7]: every seat of hardware/pinmap.toml, each LED at the map's
    brightness; SeatBoxes.dark() darkens them all."""
    pm = pinmap.load(ROOT / "hardware" / "pinmap.toml")
    boxes = seats.SeatBoxes(pm, pin_factory=factory, timing=FAST)
    assert len(boxes) == 12 and [b.number for b in boxes] == list(range(1, 13))
    for box in boxes:
        box.recorded()
    assert all(factory.pin(s.led).state == pytest.approx(pm.brightness) for s in pm.seats)
    boxes.dark()
    assert all(factory.pin(s.led).state == 0 for s in pm.seats)
    boxes.dark(False)
    assert factory.pin(boxes[12].seat.led).state == pytest.approx(pm.brightness)
    boxes.close()
    assert len(boxes) == 0


def test_expander_leds_speak_the_same_language(factory):
    """[issue 7]: on hardware/pinmap-18.toml seats 7-18's LEDs are on mcp0
    (on/off, no PWM): solid, slow blink, three quick blinks and back, dark."""
    pm = pinmap.load(ROOT / "hardware" / "pinmap-18.toml")
    bus = FakeBus()
    boxes = seats.SeatBoxes(pm, pin_factory=factory, bus=bus, timing=FAST)
    assert len(boxes) == 18
    box = boxes[18]
    assert box.seat.led == ExpanderPin(0, 11)  # GPB3
    bit = 1 << 3

    def lit() -> list[bool]:
        states: list[bool] = []
        for _, register, value in bus.writes:
            if register == OLATB:
                state = bool(value & bit)
                if not states or states[-1] != state:
                    states.append(state)
        return states

    box.recorded()
    assert bus.writes[-1] == (0x20, OLATB, bit)
    box.refused()
    time.sleep(FAST.refusal + 0.06 * K)
    assert lit()[-7:] == [True, False, True, False, True, False, True]  # 3 blinks, solid
    changes = len(lit())
    box.waiting()
    time.sleep(0.22 * K)  # 0.05 s on / 0.05 s off (times K): four or five changes
    box.dark()
    slow = lit()[changes:]
    assert len(slow) >= 4 and slow[:4] == [False, True, False, True]  # from solid
    assert lit()[-1] is False and not boxes.expanders.is_on(box.seat.led)
    writes = len(bus.writes)
    box.refused()
    time.sleep(FAST.refusal + 0.05 * K)
    assert len(bus.writes) == writes  # nothing written at night
    boxes.close()
    assert bus.writes[-2:] == [(0x20, OLATA, 0), (0x20, OLATB, 0)]


def test_an_expander_led_without_a_bus_is_refused(factory):
    """[issue 7]: a seat box whose LED is on an expander needs the expanders."""
    with pytest.raises(ValueError, match="seat 7: LED mcp0:0 is on an expander"):
        seats.SeatBox(Seat(7, 8, ExpanderPin(0, 0)), pin_factory=factory)
    factory.pin(8)  # the button was closed again: the pin is free
    seats.SeatBox(Seat(7, 8, 11), pin_factory=factory).close()


def test_a_press_is_queued_with_its_time(factory):
    """[issue 7]: a press callback only timestamps and enqueues; presses()
    drains everything waiting; on_press only wakes the consumer."""
    pm = pinmap.load(ROOT / "hardware" / "pinmap.toml")
    woken = threading.Event()
    boxes = seats.SeatBoxes(pm, pin_factory=factory, on_press=woken.set)
    assert boxes.presses() == []
    before = time.monotonic_ns()
    factory.pin(pm.seats[2].button).drive_low()  # seat 3
    factory.pin(pm.seats[2].button).drive_high()
    assert woken.is_set()
    [press] = boxes.presses()
    assert press.seat == 3 and before <= press.t_ns <= time.monotonic_ns()
    assert boxes.presses() == []
    assert boxes.presses(timeout=0.02) == []
    boxes.close()


def test_a_bouncing_press_is_one_press(factory):
    """[issue 7]: software debounce (the mock ignores bounce_time): contacts
    bouncing within 30 ms are one press; two presses 100 ms apart are two."""
    pm = PinMap(seats=(SEAT, Seat(2, 14, 18)))
    boxes = seats.SeatBoxes(pm, pin_factory=factory)
    button = factory.pin(4)
    for _ in range(5):  # one press, bouncing
        button.drive_low()
        button.drive_high()
    factory.pin(14).drive_low()  # another seat at the same time is not a bounce
    assert [p.seat for p in boxes.presses()] == [1, 2]
    time.sleep(0.1)
    button.drive_low()
    button.drive_high()
    button.drive_low()
    [press] = boxes.presses()
    assert press.seat == 1
    button.drive_high()  # released: gpiozero's hold thread ends at once on close
    boxes.close()


def test_debounce_window_is_a_parameter(factory):
    """[issue 7]: debounce_ms=0 accepts every edge (a test of the window)."""
    boxes = seats.SeatBoxes(PinMap(seats=(SEAT,)), pin_factory=factory, debounce_ms=0)
    for _ in range(3):
        factory.pin(4).drive_low()
        factory.pin(4).drive_high()
    assert len(boxes.presses()) == 3
    boxes.close()


def test_18_seats_pressed_at_once_from_18_threads(factory):
    """[issue 7]: 18 seats pressed within the same millisecond (18 threads
    released together, each bouncing): every press counted once, queued with
    its time, and they come out together in one batch."""
    pm = pinmap.load(ROOT / "hardware" / "pinmap-18.toml")
    boxes = seats.SeatBoxes(pm, pin_factory=factory, bus=FakeBus())
    start = threading.Barrier(18)
    before = time.monotonic_ns()

    def press(gpio: int) -> None:
        pin = factory.pin(gpio)
        start.wait()
        for _ in range(3):
            pin.drive_low()
            pin.drive_high()

    threads = [threading.Thread(target=press, args=(s.button,)) for s in pm.seats]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    batch = boxes.presses()
    assert sorted(p.seat for p in batch) == list(range(1, 19))
    assert all(before <= p.t_ns <= time.monotonic_ns() for p in batch)
    assert boxes.presses() == []
    boxes.close()


def test_pins_without_pwm_still_speak_the_language():
    """[issue 7]: on a pin library without PWM (gpiozero's plain mock pins)
    the LED is an undimmed on/off LED: the language works, the dimming not."""
    factory = MockFactory()
    try:
        box = seats.SeatBox(SEAT, pin_factory=factory, timing=FAST)
        box.recorded()
        assert factory.pin(17).state is True
        box.dark()
        assert factory.pin(17).state is False
        box.close()
    finally:
        factory.reset()
        factory.close()


def test_one_blinker_thread_blinks_every_box_and_outlives_a_broken_led(factory):
    """[issue 7] the slow blink of many boxes is timed by one shared thread (no
    thread per LED); an LED whose expander stops answering stops, the others
    go on blinking."""
    blinker = seats.Blinker()
    good = seats.SeatBox(SEAT, pin_factory=factory, timing=FAST, blinker=blinker)
    bad = seats.SeatBox(Seat(2, 14, 18), pin_factory=factory, timing=FAST, blinker=blinker)
    before = threading.active_count()
    good.waiting()
    bad.waiting()
    assert threading.active_count() <= before + 1  # the blinker, once

    def broken() -> None:
        raise OSError(121, "Remote I/O error")

    bad.led.on = broken  # type: ignore[method-assign]
    bad.led.off = broken  # type: ignore[method-assign]
    led = factory.pin(17)
    led.clear_states()
    time.sleep(0.35 * K)
    assert len(_duties(led)) >= 4  # still blinking
    good.close()
    bad.close()


def _change_times(pin) -> list[float]:
    """When the pin changed (its states' timestamps are the gaps between them)."""
    times, at, last = [], 0.0, None
    for state in pin.states:
        at += state.timestamp
        if last is not None and state.state != last:
            times.append(at)
        last = state.state
    return times


def _most_in_a_window(times: list[float], window: float) -> int:
    return max((sum(1 for u in times if t <= u < t + window) for t in times), default=0)


@pytest.mark.parametrize("limit", [True, False])
def test_presses_again_and_again_flash_at_most_three_times_a_second(factory, limit):
    """[issue 43] (WCAG 2.3.1: at most three flashes in any second): a refused
    press blinked 3 times in 0.9 s and each new press started it again, up to
    4 flashes a second; the waiting blink after a refusal added one. Now an
    LED changes at most 6 times (3 flashes) in any second, whatever the
    presses. The rhythm here is the real one three times faster (phases of
    50 ms, a window of 1/3 s); without the limit (`limit=False`) the same
    presses make more than 6 changes in a window: the check can fail."""
    window = K / 3
    timing = seats.Timing(wait_on=window, wait_off=window, refuse_on=0.05 * K, refuse_off=0.05 * K,
                          flash_window=window, flash_changes=6 if limit else 10**6)
    box = _box(factory, timing)
    led = factory.pin(17)
    box.waiting()
    led.clear_states()
    for _ in range(6):  # a player pressing again and again, a refusal each time
        box.refused()
        time.sleep(0.27 * window * 3 / 3)
    time.sleep(window)
    box.off()
    changes = _change_times(led)
    most = _most_in_a_window(changes, window)
    if limit:
        assert most <= 6, (most, changes)
    else:
        assert most > 6, (most, changes)
    box.close()
