"""Make the page's three sounds (card.wav, turn.wav, end.wav): tiny mono
16-bit WAV files, 11,025 samples a second, synthesised here so that the
package carries no recorded audio of unknown origin. Run it from anywhere to
write them beside this script again:

    python server/kozyri_server/static/sounds/make_sounds.py
"""

from __future__ import annotations

import wave
from pathlib import Path

import numpy as np

RATE = 11_025
HERE = Path(__file__).resolve().parent


def tone(freq: float, seconds: float, decay: float, volume: float = 0.5) -> np.ndarray:
    """A sine note that fades out exponentially (``decay`` per second), with a 5 ms attack."""
    t = np.arange(int(RATE * seconds)) / RATE
    attack = np.minimum(1.0, t / 0.005)
    return volume * attack * np.exp(-decay * t) * np.sin(2 * np.pi * freq * t)


def card() -> np.ndarray:
    """A card placed: a short soft tap (filtered noise over a low thump)."""
    rng = np.random.default_rng(7)
    n = int(RATE * 0.07)
    t = np.arange(n) / RATE
    noise = np.convolve(rng.standard_normal(n), np.ones(6) / 6, mode="same")
    return 0.35 * noise * np.exp(-60 * t) + tone(180, 0.07, 50, 0.4)


def turn() -> np.ndarray:
    """Your turn: two rising notes."""
    return np.concatenate([tone(660, 0.09, 18, 0.35), tone(880, 0.16, 14, 0.35)])


def end() -> np.ndarray:
    """The game over: three notes of a chord, one after another."""
    notes = [tone(f, 0.1 if i < 2 else 0.25, 8, 0.3) for i, f in enumerate((523.25, 659.25, 783.99))]
    return np.concatenate(notes)


def write(name: str, samples: np.ndarray) -> Path:
    path = HERE / name
    data = (np.clip(samples, -1, 1) * 32767).astype("<i2")
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(RATE)
        out.writeframes(data.tobytes())
    return path


if __name__ == "__main__":
    for name, make in (("card.wav", card), ("turn.wav", turn), ("end.wav", end)):
        path = write(name, make())
        print(f"{path.name}: {path.stat().st_size:,} bytes")
