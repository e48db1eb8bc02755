"""The benches [issue 32 gathered them here]: `werewolf bench engine|hub|presses`.

- `engine`: random legal games through the engine, per ruleset and player count;
- `hub`: a real `werewolf serve` with 22 open streams (its clients in
  `clients`, the hostile Wi-Fi's flooders in `hostile`);
- `presses`: 18 simulated seat boxes pressed together, through the table to the LEDs.

Each prints one JSON object of figures as its last line (docs/performance/).
"""
