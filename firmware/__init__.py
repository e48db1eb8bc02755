"""The Pi-side hardware: the pin map, the seat boxes (a button and an LED per
seat, through gpiozero), the small display (luma.oled) and the start-up
checks (`werewolf doctor`). Installed as `companion.firmware`.

Hardware sits behind gpiozero's pin factories: on a laptop and in tests the
MockFactory stands in for the pins, and luma's dummy device for the display.
"""
