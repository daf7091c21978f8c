// The table's sounds (sounds/README.md: made for the project, CC0): your move, a card
// played, a trick taken, a marriage, the end of a deal. A mute switch remembered in
// localStorage; nothing plays before the player has touched the page (browsers refuse it
// anyway), and a browser driven by automation (the tests) starts muted.
// window.thousandSounds lists every sound played, so that tests can count them.

const KEY = "thousand.sound";
export const SOUNDS = ["turn", "card", "trick", "marriage", "deal"];
const played = [];
const cache = new Map();
let activated = false;

if (typeof window !== "undefined") {
  window.thousandSounds = played;
  for (const kind of ["pointerdown", "keydown"]) {
    window.addEventListener(kind, () => { activated = true; }, { capture: true, passive: true });
  }
}

/** Whether sounds are on: the player's choice, else on (off under automation). */
export function soundOn() {
  let value = null;
  try {
    value = localStorage.getItem(KEY);
  } catch (e) {
    value = null;
  }
  if (value === "on") return true;
  if (value === "off") return false;
  return !navigator.webdriver;
}

/** Turn sounds on or off, for this and later visits. */
export function setSoundOn(on) {
  try {
    localStorage.setItem(KEY, on ? "on" : "off");
  } catch (e) {
    // private mode: the switch lasts for this page only
  }
}

/** Play one of SOUNDS, if sounds are on and the player has interacted with the page. */
export function playSound(name) {
  if (!SOUNDS.includes(name) || !soundOn() || !activated) return;
  let audio = cache.get(name);
  if (!audio) {
    audio = new Audio(`/static/sounds/${name}.wav`);
    audio.preload = "auto";
    cache.set(name, audio);
  }
  played.push(name);
  try {
    audio.currentTime = 0;
    const p = audio.play();
    if (p && typeof p.catch === "function") p.catch(() => {});
  } catch (e) {
    // no audio output: the game goes on silently
  }
}
