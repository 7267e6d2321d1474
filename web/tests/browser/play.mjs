// Plays the web board in a real browser (Debian's Chromium through playwright-core) against
// a running ishi-web: a 9x9 Go game at the easy level to the score through the dead-stone
// step, a 4x4 Margo game to its end with the swap, Abalone until the first ejection or a
// fixed number of moves; on the way an illegal click of each game shows its reason, hint
// and undo work, and a reload keeps the game. Screenshots go to the folder given.
//
// node play.mjs URL SCREENSHOT_FOLDER
// Exit status 0 when every check holds; figures (click times, moves) go to stdout.

import { chromium } from 'playwright-core';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';

const [url, screenshots] = process.argv.slice(2);
if (!url || !screenshots) {
  console.error('usage: node play.mjs URL SCREENSHOT_FOLDER');
  process.exit(2);
}
mkdirSync(screenshots, { recursive: true });
const MOVE_LIMIT_MS = 120_000;

const began = Date.now();
function check(condition, text) {
  if (!condition) throw new Error(`check failed: ${text}`);
  console.log(`ok ${((Date.now() - began) / 1000).toFixed(1)}s: ${text}`);
}

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
    '--disable-sync', '--disable-quic', '--no-first-run'],
});
const context = await browser.newContext({ viewport: { width: 1200, height: 860 } });
const page = await context.newPage();
const consoleErrors = [];
page.on('console', (message) => { if (message.type() === 'error') consoleErrors.push(message.text()); });
page.on('pageerror', (error) => consoleErrors.push(String(error)));

// The page's own state, read through the object it exposes for tests and debugging.
const state = () => page.evaluate(() => ({
  board: window.ishiPage.board,
  phase: window.ishiPage.phase,
  moves: window.ishiPage.moves.length,
  result: window.ishiPage.result,
  color: window.ishiPage.settings && window.ishiPage.settings.color,
}));

// Waits until the engine has answered and it is the player's turn, or the game has ended
// or reached the dead-stone step.
async function settle() {
  await page.waitForFunction(() => {
    const p = window.ishiPage;
    if (!p.board || p.busy || p.thinking) return false;
    if (p.phase !== 'play') return true;
    const toMove = p.board.to_move ?? (p.board.moves === 0 ? 'b' : null);
    return p.board.over || toMove === p.settings.color;
  }, null, { timeout: MOVE_LIMIT_MS });
}

async function startGame(options) {
  await page.selectOption('#game', options.game);
  await page.selectOption('#size', options.size);
  await page.selectOption('#color', options.color);
  await page.selectOption('#level', options.level);
  await page.click('#new-game');
  await page.waitForFunction((game) => window.ishiPage.board && window.ishiPage.board.game === game, options.game);
  await settle();
}

async function protocolErrors() {
  return page.evaluate(() => window.ishiProtocolErrors());
}

// Clicks and waits until the page has handled the click.
async function click(selector) {
  await page.click(selector);
  await page.waitForFunction(() => !window.ishiPage.busy, null, { timeout: MOVE_LIMIT_MS });
}

async function reason() {
  return page.$eval('#message', (node) => ({ reason: node.dataset.reason, text: node.textContent }));
}

// ----------------------------------------------------------------------------------------
// Go 9x9, easy, the player Black

await page.goto(url);
await page.waitForFunction(() => document.body.dataset.ready === '1');
await startGame({ game: 'go', size: '9', color: 'b', level: 'easy' });
check((await state()).board.size === 9, 'go: a 9x9 board');

await click('[data-vertex="E5"]');
await settle();
let now = await state();
check(now.moves === 2, `go: E5 and ishi's reply played (${now.board.last_move})`);
check(await page.$('[data-stone="E5"][data-color="b"]') !== null, 'go: the stone is drawn');

await click('[data-vertex="E5"]');
let shown = await reason();
check(shown.reason === 'occupied' && shown.text.length > 0, `go: an illegal click shows its reason: ${shown.text}`);

await click('[data-vertex="C3"]');
await settle();
await page.click('#hint');
await page.waitForFunction(() => !window.ishiPage.busy && window.ishiPage.hint);
const hinted = await page.evaluate(() => window.ishiPage.hint);
check(/^([A-HJ-T]\d+|pass)$/i.test(hinted) && (await reason()).text.includes(hinted), `go: hint ${hinted}`);
check((await state()).moves === 4, 'go: a hint plays nothing');

await click('#undo');
await settle();
check((await state()).moves === 2, 'go: undo takes back the player\'s move and the reply');
check(await page.$('[data-stone="C3"]') === null, 'go: the undone stone is gone');

await click('[data-vertex="G7"]');
await settle();
const before = await page.$$eval('[data-stone]', (nodes) => nodes.map((node) => `${node.dataset.stone}${node.dataset.color}`).sort().join(' '));
await page.reload();
await page.waitForFunction(() => document.body.dataset.ready === '1');
await settle();
const after = await page.$$eval('[data-stone]', (nodes) => nodes.map((node) => `${node.dataset.stone}${node.dataset.color}`).sort().join(' '));
check(before === after && before.length > 0, `go: a reload keeps the game (${after})`);

await page.click('#ownership');
await page.waitForFunction(() => !window.ishiPage.busy && window.ishiPage.ownership, null, { timeout: MOVE_LIMIT_MS });
check((await page.$$('.ownership')).length > 0, 'go: ownership shading drawn');
await page.screenshot({ path: join(screenshots, 'go-ownership.png') });
await page.click('#ownership');

// Pass until ishi passes too: then the dead-stone step.
for (let turn = 0; turn < 120; turn += 1) {
  now = await state();
  if (now.phase !== 'play') break;
  await click('#pass');
  await settle();
}
now = await state();
check(now.phase === 'scoring', `go: two passes lead to the dead-stone step after ${now.moves} moves`);
await page.screenshot({ path: join(screenshots, 'go-dead-stones.png') });
const stone = await page.$eval('[data-stone]', (node) => ({ vertex: node.dataset.stone, dead: node.dataset.dead }));
await page.click(`[data-vertex="${stone.vertex}"]`);
const toggled = await page.$eval(`[data-stone="${stone.vertex}"]`, (node) => node.dataset.dead);
check(toggled !== stone.dead, `go: clicking ${stone.vertex} changes its status (${stone.dead} -> ${toggled})`);
await page.click(`[data-vertex="${stone.vertex}"]`);
await click('#count');
await page.waitForFunction(() => window.ishiPage.phase === 'over');
const score = await page.$eval('#result', (node) => node.dataset.score);
check(/^[BW]\+\d+(\.\d+)?$|^0$/.test(score), `go: the score ${score}`);
await page.screenshot({ path: join(screenshots, 'go.png') });
await page.click('#record');
check(await protocolErrors() === 0, 'go: no protocol error');

// ----------------------------------------------------------------------------------------
// Margo 4x4, the player White: ishi moves first, the player swaps, and plays to the end

await startGame({ game: 'margo', size: '4', color: 'w', level: 'easy' });
now = await state();
check(now.moves === 1, 'margo: ishi made the first move');
check(await page.isVisible('#swap'), 'margo: the swap is offered after the first move');
await click('#swap');
await settle();
now = await state();
check(now.moves >= 2 && now.board.balls.some((ball) => ball.color === 'w'), 'margo: after the swap the first ball is White\'s');

await click('[data-vertex="B2"]');
shown = await reason();
const platformRefused = shown.reason === 'no_platform' || shown.reason === 'occupied';
check(platformRefused && shown.text.length > 0, `margo: an illegal click shows its reason: ${shown.text}`);

// Columns over the holes' corners (odd letter and number: level 1 and up) first, so the
// pyramid grows and the refusals include the platform rule.
const margoVertices = (await page.$$eval('[data-vertex]', (nodes) => nodes.map((node) => node.dataset.vertex)))
  .sort((a, b) => (a.charCodeAt(0) % 2) - (b.charCodeAt(0) % 2));
let illegalClicks = 0;
let upperDrawn = 0;
for (let turn = 0; turn < 40; turn += 1) {
  now = await state();
  if (now.phase !== 'play' || now.board.over) break;
  let played = false;
  for (const vertex of margoVertices) {
    const moves = (await state()).moves;
    await click(`[data-vertex="${vertex}"]`);
    if ((await state()).moves > moves) { played = true; break; }
    illegalClicks += 1;
    const refused = await reason();
    check(refused.reason && refused.text.length > 0, `margo: ${vertex} refused: ${refused.reason}`);
  }
  check(played, 'margo: the player found a legal move');
  await settle();
  const upper = (await state()).board.balls.filter((ball) => ball.level > 0).length;
  if (upper > 0 && upperDrawn === 0) {
    upperDrawn = (await page.$$('[data-ball][data-level]:not([data-level="0"])')).length;
    check(upperDrawn === upper, `margo: ${upper} balls above the holes drawn on their level`);
    await page.screenshot({ path: join(screenshots, 'margo-pyramid.png') });
  }
}
now = await state();
check(upperDrawn > 0, 'margo: the game reached the upper levels');
check(now.board.over && now.phase === 'over', `margo: the game ended after ${now.moves} moves, ${now.board.score}`);
const margoResult = await page.$eval('#result', (node) => node.textContent);
check(margoResult.length > 1, `margo: the result shown: ${margoResult}`);
await page.screenshot({ path: join(screenshots, 'margo.png') });
check(await protocolErrors() === 0, 'margo: no protocol error');

// ----------------------------------------------------------------------------------------
// Abalone, Belgian daisy, the player Black: to the first ejection or 8 moves

await startGame({ game: 'abalone', size: 'belgian', color: 'b', level: 'easy' });
check((await page.$$('[data-marble]')).length === 28, 'abalone: 28 marbles');

// A broadside into own marbles: the engine names the reason.
await click('[data-cell="a2"]');
await click('[data-cell="b2"]');
await page.click('[data-direction="E"]');
await page.waitForFunction(() => !window.ishiPage.busy);
shown = await reason();
check(shown.text.length > 0 && shown.reason, `abalone: an illegal move shows its reason (${shown.reason}): ${shown.text}`);
await page.click('#clear-selection');

const directions = ['NE', 'NW', 'E', 'W', 'SE', 'SW'];
for (let turn = 0; turn < 8; turn += 1) {
  now = await state();
  if (now.phase !== 'play' || now.board.over) break;
  if (now.board.ejected.b + now.board.ejected.w > 0) break;
  const mine = now.board.marbles.filter((marble) => marble.color === 'b').map((marble) => marble.cell);
  let played = false;
  search: for (let index = 0; index < mine.length; index += 1) {
    // Lines of two first (they push), then single marbles.
    const cell = mine[(index * 5 + turn * 3) % mine.length];
    for (const direction of directions) {
      const moves = (await state()).moves;
      if (await page.isVisible('#clear-selection')) await page.click('#clear-selection');
      await click(`[data-cell="${cell}"]`);
      await page.click(`[data-direction="${direction}"]`);
      await page.waitForFunction(() => !window.ishiPage.busy);
      if ((await state()).moves > moves) { played = true; break search; }
    }
  }
  check(played, `abalone: move ${turn + 1} played`);
  await settle();
  if (turn === 0) {
    check((await page.$$('[data-changed]')).length > 0, 'abalone: the cells the last move changed are marked');
  }
}
now = await state();
check(now.moves >= 8 || now.board.ejected.b + now.board.ejected.w > 0, `abalone: ${now.moves} moves, ejected ${now.board.ejected.b}/${now.board.ejected.w}`);
await page.screenshot({ path: join(screenshots, 'abalone.png') });
check(await protocolErrors() === 0, 'abalone: no protocol error');

const times = await page.evaluate(() => window.ishiPage.clickMilliseconds);
times.sort((a, b) => a - b);
const median = times[Math.floor(times.length / 2)];
console.log(`click to board, engine time aside: ${times.length} moves, median ${median.toFixed(1)} ms, max ${times[times.length - 1].toFixed(1)} ms`);
console.log(`margo: ${illegalClicks} illegal clicks answered with a reason`);
check(consoleErrors.length === 0, `no console error${consoleErrors.length ? `: ${consoleErrors.join(' | ')}` : ''}`);
await browser.close();
