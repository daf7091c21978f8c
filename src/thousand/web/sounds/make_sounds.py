"""Make the table's sounds (turn, card, trick, marriage, deal): short tones and noise,
synthesised here so that the repository owns them outright (CC0), 8 kHz mono 8-bit WAV,
a few KB each.  Run ``python make_sounds.py`` in this folder to make them again."""

from __future__ import annotations

import math
import random
import wave
from pathlib import Path

RATE = 8000


def _tone(freqs: list[float], seconds: float, decay: float) -> list[float]:
    """A chord of sines with an exponential fade."""
    n = int(RATE * seconds)
    return [sum(math.sin(2 * math.pi * f * i / RATE) for f in freqs) / len(freqs)
            * math.exp(-decay * i / n) for i in range(n)]


def _click(seconds: float, seed: int) -> list[float]:
    """A short burst of noise: a card put on the cloth."""
    rng = random.Random(seed)
    n = int(RATE * seconds)
    return [rng.uniform(-1, 1) * math.exp(-9 * i / n) for i in range(n)]


def _write(path: Path, samples: list[float], volume: float = 0.6) -> None:
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(1)
        w.setframerate(RATE)
        w.writeframes(bytes(max(0, min(255, int(128 + 127 * volume * s))) for s in samples))


def main() -> None:
    here = Path(__file__).resolve().parent
    sounds = {
        "turn": _tone([660.0], 0.12, 3) + _tone([880.0], 0.16, 4),
        "card": _click(0.07, 1),
        "trick": _click(0.05, 2) + _click(0.05, 3) + _click(0.06, 4),
        "marriage": _tone([523.3, 659.3], 0.12, 2) + _tone([659.3, 784.0], 0.22, 3),
        "deal": _tone([392.0, 493.9, 587.3], 0.35, 3),
    }
    for name, samples in sounds.items():
        _write(here / f"{name}.wav", samples)


if __name__ == "__main__":
    main()
