// The web board of ishi: draws Go, Margo and Abalone and plays them against the engine over
// GTP (one command per WebSocket message, answered in order). It knows no rules: legality,
// reasons, captures, scores and the position all come from the engine (`ishi-board`,
// `ishi-illegal_reason`, `final_status_list`, `ishi-score_dead`, docs/board.md). What it
// knows is geometry: where to draw a point and which point a click names.

// ---------------------------------------------------------------------------------------
// GTP over the socket

class Connection {
  constructor(url) {
    this.url = url;
    this.nextId = 1;
    this.pending = [];
    this.protocolErrors = 0;
    this.onstate = () => {};
  }

  open() {
    return new Promise((resolve, reject) => {
      this.socket = new WebSocket(this.url);
      this.socket.onopen = () => { this.onstate('open'); resolve(); };
      this.socket.onerror = () => reject(new Error('cannot reach the server'));
      this.socket.onclose = (event) => {
        this.onstate('closed', event.reason);
        for (const waiting of this.pending.splice(0)) {
          waiting.reject(new Error(event.reason || 'connection closed'));
        }
      };
      this.socket.onmessage = (event) => this.receive(event.data);
    });
  }

  // Sends one command; resolves to {ok, text} (text without the `=id ` or `?id `).
  send(command) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      if (!this.socket || this.socket.readyState !== WebSocket.OPEN) {
        reject(new Error('not connected'));
        return;
      }
      this.pending.push({ id, command, resolve, reject });
      this.socket.send(`${id} ${command}`);
    });
  }

  receive(data) {
    const match = /^([=?])(\d*)(?: |$)([\s\S]*)$/.exec(String(data));
    if (!match) {
      this.protocolErrors += 1;
      console.error('not a GTP answer:', data);
      return;
    }
    const [, sign, idText, text] = match;
    // A refusal by the server for a message it did not relay carries no id.
    const waiting = this.pending.shift();
    if (!waiting) {
      this.protocolErrors += 1;
      console.error('an answer nobody asked for:', data);
      return;
    }
    if (idText !== '' && Number(idText) !== waiting.id) {
      this.protocolErrors += 1;
      console.error(`answer ${idText} for command ${waiting.id}`);
    }
    waiting.resolve({ ok: sign === '=', text: text.trim() });
  }
}

// ---------------------------------------------------------------------------------------
// Words and small helpers

const REASONS = {
  occupied: 'That point is already taken.',
  suicide: 'Suicide: the move would leave your own group with no liberty.',
  ko: 'Ko: you may not retake the ko at once. Play elsewhere first.',
  superko: 'Superko: the move would repeat an earlier position.',
  off_board: 'That is off the board.',
  no_point: 'There is no point there.',
  no_platform: 'No platform: a ball needs the four balls beneath it.',
  swap_not_allowed: 'A swap is only allowed as the second move.',
  wrong_turn: 'It is not your turn.',
  game_over: 'The game is over.',
  not_own_line: 'Choose a line of one to three of your own marbles.',
  blocked: 'Blocked: those marbles cannot move that way.',
  no_sumito: 'No sumito: you may only push fewer opposing marbles than you push with, into a free cell or off the board.',
  own_marble_off: 'That would push your own marble off the board.',
};

const COLOR_NAMES = { b: 'Black', w: 'White' };
const other = (color) => (color === 'b' ? 'w' : 'b');
const SVG = 'http://www.w3.org/2000/svg';
const $ = (id) => document.getElementById(id);

function element(name, attributes = {}, parent = null) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, value);
  if (parent) parent.appendChild(node);
  return node;
}

function describeReason(word) {
  return REASONS[word] || `Illegal move (${word}).`;
}

// ---------------------------------------------------------------------------------------
// Geometry of each game (no rules)

const GO_LETTERS = 'ABCDEFGHJKLMNOPQRSTUVWXYZ';
const MARGO_LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

// Go: vertex <-> (column, row from the top).
function goVertex(column, rowFromTop, size) {
  return `${GO_LETTERS[column]}${size - rowFromTop}`;
}
function goPlace(vertex, size) {
  const column = GO_LETTERS.indexOf(vertex[0].toUpperCase());
  const row = Number(vertex.slice(1));
  if (column < 0 || !(row >= 1 && row <= size)) return null;
  return { x: column, y: size - row };
}

// Margo: a vertex names the grid cell (letter, number) of a column of the pyramid.
function margoPlace(vertex, grid) {
  const x = MARGO_LETTERS.indexOf(vertex[0].toUpperCase());
  const number = Number(vertex.slice(1));
  return { x, y: grid - number };
}

// Abalone: rows a-i from the bottom, diagonals 1-9; cell (row, diagonal), both from 0.
const ABALONE_STEPS = { E: [0, 1], NE: [1, 1], NW: [1, 0], W: [0, -1], SW: [-1, -1], SE: [-1, 0] };
function abaloneCell(text) {
  return { row: text.charCodeAt(0) - 97, diagonal: Number(text.slice(1)) - 1 };
}
function abaloneName(cell) {
  return `${String.fromCharCode(97 + cell.row)}${cell.diagonal + 1}`;
}
function abaloneOnBoard(cell) {
  return cell.row >= 0 && cell.row < 9 && cell.diagonal >= 0 && cell.diagonal < 9
    && Math.abs(cell.row - cell.diagonal) <= 4;
}
function abaloneStep(cell, direction) {
  const [row, diagonal] = ABALONE_STEPS[direction];
  return { row: cell.row + row, diagonal: cell.diagonal + diagonal };
}
function abalonePoint(cell) {
  return { x: cell.diagonal - cell.row / 2 + 2, y: (8 - cell.row) * 0.866 };
}
function abaloneAllCells() {
  const cells = [];
  for (let row = 0; row < 9; row += 1) {
    for (let diagonal = 0; diagonal < 9; diagonal += 1) {
      if (abaloneOnBoard({ row, diagonal })) cells.push({ row, diagonal });
    }
  }
  return cells;
}
// The direction that leads from `from` to the neighbouring `to`, if any.
function abaloneDirection(from, to) {
  for (const [name, [row, diagonal]] of Object.entries(ABALONE_STEPS)) {
    if (from.row + row === to.row && from.diagonal + diagonal === to.diagonal) return name;
  }
  return null;
}
// The selected marbles as a line: its two ends and the axis from the first to the second,
// or null when they are not one straight, gapless line.
function abaloneLine(names) {
  const cells = names.map(abaloneCell);
  if (cells.length === 1) return { ends: [cells[0], cells[0]], axis: null };
  for (const axis of ['E', 'NE', 'NW']) {
    for (const start of cells) {
      let current = start;
      let count = 1;
      const members = [abaloneName(start)];
      while (count < cells.length) {
        current = abaloneStep(current, axis);
        if (!names.includes(abaloneName(current))) break;
        members.push(abaloneName(current));
        count += 1;
      }
      if (count === cells.length) return { ends: [start, current], axis };
    }
  }
  return null;
}
const OPPOSITE = { E: 'W', W: 'E', NE: 'SW', SW: 'NE', NW: 'SE', SE: 'NW' };

// The AbaPro move of the selected line going `direction`, or a text saying why none.
function abaloneMove(names, direction) {
  const line = abaloneLine(names);
  if (!line) return { error: 'Choose marbles that form one straight line.' };
  const [first, last] = line.ends;
  if (names.length === 1 || direction === line.axis || direction === OPPOSITE[line.axis]) {
    // Inline: the trailing marble and the cell it moves to.
    const trailing = direction === line.axis ? first : last;
    const target = abaloneStep(trailing, direction);
    if (!abaloneOnBoard(target)) return { error: REASONS.own_marble_off };
    return { move: `${abaloneName(trailing)}${abaloneName(target)}` };
  }
  // Broadside: the two ends and where the first one goes.
  const target = abaloneStep(first, direction);
  if (!abaloneOnBoard(target)) return { error: REASONS.own_marble_off };
  return { move: `${abaloneName(first)}${abaloneName(last)}${abaloneName(target)}` };
}

// ---------------------------------------------------------------------------------------
// The game in the page

const SIZES = {
  go: [['7', '7x7'], ['9', '9x9'], ['13', '13x13'], ['19', '19x19']],
  margo: [['4', '4x4'], ['5', '5x5'], ['6', '6x6'], ['7', '7x7'], ['8', '8x8'], ['9', '9x9']],
  abalone: [['belgian', 'Belgian daisy'], ['german', 'German daisy'], ['standard', 'Standard']],
};
const DEFAULT_SIZE = { go: '9', margo: '6', abalone: 'belgian' };
const STORAGE_KEY = 'ishi-web-game';

const page = {
  connection: null,
  settings: null, // {game, size, color, level, rules, komi}
  moves: [], // [{color, move}] played since the start, for a page reload
  board: null, // the last ishi-board answer
  previous: null, // the board before the last move (Abalone: what moved)
  phase: 'setup', // setup | play | scoring | over
  playOn: false, // Go: play goes on after two passes
  busy: false,
  thinking: false,
  selection: [], // Abalone: selected cells
  dead: new Set(), // Go scoring: vertices shown dead
  hint: null,
  ownership: null,
  result: null,
  clickMilliseconds: [],
};
window.ishiPage = page;

// A command and its answer, {ok, text}.
const ask = (command) => page.connection.send(command);

// A command that must succeed; a failure is shown and thrown.
async function must(command) {
  const answer = await ask(command);
  if (!answer.ok) {
    showMessage(`${command}: ${answer.text}`);
    throw new Error(`${command}: ${answer.text}`);
  }
  return answer.text;
}

function showMessage(text, kind = 'error', reason = '') {
  const message = $('message');
  message.textContent = text;
  message.dataset.kind = kind;
  message.dataset.reason = reason;
}

function save() {
  try {
    sessionStorage.setItem(STORAGE_KEY, JSON.stringify({
      settings: page.settings, moves: page.moves, result: page.result,
    }));
  } catch (error) {
    console.warn('cannot keep the game for a reload', error);
  }
}

async function refresh() {
  const text = await must('ishi-board');
  page.board = JSON.parse(text);
  draw();
}

// Whether the game goes on: not over, or over by two passes and the player chose to play on.
function playing() {
  return page.phase === 'play' && page.board && (!page.board.over || page.playOn);
}

// The side to move. Margo lets either colour begin (the engine names none before the first
// move); the page, like GTP controllers, has Black begin every game.
function sideToMove() {
  const board = page.board;
  if (!board) return null;
  if (board.to_move === null && board.moves === 0 && !board.over) return 'b';
  return board.to_move;
}

function playerToMove() {
  return playing() && sideToMove() === page.settings.color;
}

function engineToMove() {
  return playing() && sideToMove() === other(page.settings.color);
}

// A new game set up on the engine, the moves given replayed. The page is busy meanwhile, so
// that no click reaches the engine between the setup's commands.
async function newGame(settings, replay = [], result = null) {
  if (page.busy || page.thinking) return;
  page.busy = true;
  try {
    await setUp(settings, replay, result);
  } finally {
    page.busy = false;
    draw();
  }
  await afterMove();
}

async function setUp(settings, replay, result) {
  page.settings = settings;
  page.moves = [];
  page.phase = 'play';
  page.playOn = false;
  page.selection = [];
  page.dead = new Set();
  page.hint = null;
  page.ownership = null;
  page.result = null;
  page.previous = null;
  showMessage('');
  await must(`ishi-game ${settings.game}`);
  if (settings.game === 'go') {
    await must(`boardsize ${settings.size}`);
    await must(`kata-set-rules ${settings.rules}`);
    await must(`komi ${settings.komi}`);
    await must('clear_board');
  } else if (settings.game === 'margo') {
    await must(`boardsize ${settings.size}`);
    await must('clear_board');
  } else {
    await must(`ishi-start ${settings.size}`);
  }
  await must(`ishi-level ${settings.level}`);
  for (const played of replay) {
    await must(`play ${played.color} ${played.move}`);
    page.moves.push(played);
  }
  page.result = result;
  await refresh();
  if (result) page.phase = 'over';
  save();
}

// What follows any move: the result when the game has ended, else the engine's move when
// it is the engine's turn.
async function afterMove() {
  const board = page.board;
  if (page.phase === 'play' && board.over && !page.playOn) {
    if (board.game === 'go' && !page.result) {
      await startScoring();
    } else {
      await finish(board.score);
    }
    return;
  }
  if (engineToMove()) await engineMove();
}

async function engineMove() {
  const color = other(page.settings.color);
  setThinking(true);
  let answer;
  try {
    answer = await ask(`genmove ${color}`);
  } finally {
    setThinking(false);
  }
  if (!answer.ok) {
    showMessage(`ishi could not move: ${answer.text}`);
    return;
  }
  const move = answer.text;
  if (move.toLowerCase() === 'resign') {
    await finish(`${COLOR_NAMES[page.settings.color][0]}+Resign`, 'ishi resigns.');
    return;
  }
  page.previous = page.board;
  page.moves.push({ color, move });
  page.hint = null;
  page.ownership = null;
  page.playOn = false;
  save();
  await refresh();
  if (move.toLowerCase() === 'pass') showMessage('ishi passes.', 'info');
  if (move.toLowerCase() === 'swap') showMessage('ishi swaps: the first ball is now its own.', 'info');
  announceEjection();
  await afterMove();
}

// The player's move: played if legal, else its reason shown.
async function playerMove(move) {
  if (!playerToMove() || page.busy) return;
  const started = performance.now();
  page.busy = true;
  try {
    const color = page.settings.color;
    const answer = await ask(`play ${color} ${move}`);
    if (!answer.ok) {
      const reason = await ask(`ishi-illegal_reason ${color} ${move}`);
      const word = reason.ok ? reason.text : '';
      showMessage(word ? describeReason(word) : `Illegal move: ${answer.text}`, 'error', word || 'syntax');
      return;
    }
    showMessage('');
    page.previous = page.board;
    page.moves.push({ color, move });
    page.selection = [];
    page.hint = null;
    page.ownership = null;
    page.playOn = false;
    save();
    await refresh();
    page.clickMilliseconds.push(performance.now() - started);
    announceEjection();
    await afterMove();
  } catch (error) {
    showMessage(String(error.message || error));
  } finally {
    page.busy = false;
    draw();
  }
}

// Abalone: says so when the last move pushed a marble off.
function announceEjection() {
  const before = page.previous;
  const board = page.board;
  if (!before || board.game !== 'abalone' || before.game !== 'abalone') return;
  for (const color of ['b', 'w']) {
    if (board.ejected[color] > before.ejected[color]) {
      const pusher = color === page.settings.color ? 'You' : 'ishi';
      showMessage(`${pusher} pushed a marble off: ${board.ejected[color]} of 6.`, 'info', 'ejection');
    }
  }
}

async function startScoring() {
  page.phase = 'scoring';
  const text = await must('final_status_list dead');
  page.dead = new Set(text.split(/\s+/).filter(Boolean).map((vertex) => vertex.toUpperCase()));
  $('scoring').hidden = false;
  showMessage('');
  draw();
}

// Go scoring: the chain of the clicked stone changes sides (dead <-> alive).
function toggleDead(vertex) {
  const size = page.board.size;
  const start = goPlace(vertex, size);
  const stone = page.board.stones[start.y][start.x];
  if (stone === '.') return;
  const chain = [];
  const seen = new Set([`${start.x},${start.y}`]);
  const stack = [start];
  while (stack.length) {
    const place = stack.pop();
    chain.push(goVertex(place.x, place.y, size));
    for (const [dx, dy] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
      const next = { x: place.x + dx, y: place.y + dy };
      const key = `${next.x},${next.y}`;
      if (next.x < 0 || next.y < 0 || next.x >= size || next.y >= size || seen.has(key)) continue;
      seen.add(key);
      if (page.board.stones[next.y][next.x] === stone) stack.push(next);
    }
  }
  const dead = !page.dead.has(vertex);
  for (const member of chain) {
    if (dead) page.dead.add(member); else page.dead.delete(member);
  }
  draw();
}

async function countScore() {
  const score = await must(`ishi-score_dead ${[...page.dead].join(' ')}`.trim());
  $('scoring').hidden = true;
  await finish(score);
}

async function finish(score, words = '') {
  page.phase = 'over';
  page.result = score;
  save();
  const text = score === '0' ? 'Draw' : score;
  showMessage(words || `Game over: ${describeResult(text)}`, 'info');
  draw();
}

function describeResult(score) {
  const match = /^([BW])\+(.*)$/.exec(score);
  if (!match) return score;
  const winner = match[1] === 'B' ? 'Black' : 'White';
  if (match[2] === 'Resign') return `${winner} wins by resignation`;
  const unit = { go: 'points', margo: 'balls', abalone: 'marbles' }[page.settings.game];
  return `${winner} wins by ${match[2]} ${unit}`;
}

async function undo() {
  if (page.busy || page.thinking || !page.moves.some((played) => played.color === page.settings.color)) return;
  page.busy = true;
  try {
    // Back to the player's last move, taken back with every reply after it.
    let last = page.moves.length - 1;
    while (last >= 0 && page.moves[last].color !== page.settings.color) last -= 1;
    while (last >= 0 && page.moves.length > last) {
      const answer = await ask('undo');
      if (!answer.ok) break;
      page.moves.pop();
    }
    await refresh();
    page.phase = 'play';
    page.playOn = false;
    page.result = null;
    page.dead = new Set();
    page.hint = null;
    page.ownership = null;
    page.previous = null;
    $('scoring').hidden = true;
    showMessage('');
    save();
  } finally {
    page.busy = false;
    draw();
  }
  if (engineToMove()) await engineMove();
}

async function hint() {
  if (!playerToMove() || page.busy) return;
  page.busy = true;
  setThinking(true);
  try {
    const move = await must(`ishi-hint ${page.settings.color}`);
    page.hint = move;
    showMessage(`Hint: ${move}`, 'info');
  } finally {
    setThinking(false);
    page.busy = false;
    draw();
  }
}

async function toggleOwnership() {
  if (page.settings?.game !== 'go' || page.busy || page.thinking) return;
  if (page.ownership) {
    page.ownership = null;
    draw();
    return;
  }
  page.busy = true;
  setThinking(true);
  try {
    const text = await must(`ishi-ownership ${page.board.to_move || 'b'}`);
    page.ownership = text.split('\n').map((row) => row.trim().split(/\s+/).map(Number));
  } finally {
    setThinking(false);
    page.busy = false;
    draw();
  }
}

async function saveRecord() {
  if (!page.settings) return;
  const go = page.settings.game === 'go';
  const text = await must(go ? 'printsgf' : 'ishi-record');
  const blob = new Blob([text + '\n'], { type: go ? 'application/x-go-sgf' : 'text/plain' });
  const link = document.createElement('a');
  link.href = URL.createObjectURL(blob);
  link.download = `ishi-${page.settings.game}.${go ? 'sgf' : 'txt'}`;
  document.body.appendChild(link);
  link.click();
  link.remove();
}

function setThinking(thinking) {
  page.thinking = thinking;
  $('thinking').hidden = !thinking;
  updateControls();
}

// ---------------------------------------------------------------------------------------
// Drawing

function draw() {
  const svg = $('board');
  svg.replaceChildren();
  if (!page.board) return;
  if (page.board.game === 'go') drawGo(svg);
  else if (page.board.game === 'margo') drawMargo(svg);
  else drawAbalone(svg);
  drawFacts();
  updateControls();
}

function drawGo(svg) {
  const board = page.board;
  const size = board.size;
  svg.setAttribute('viewBox', `-1 -1 ${size + 1} ${size + 1}`);
  element('rect', { x: -1, y: -1, width: size + 1, height: size + 1, fill: 'var(--wood)' }, svg);
  for (let line = 0; line < size; line += 1) {
    element('line', { x1: 0, y1: line, x2: size - 1, y2: line, class: 'grid-line' }, svg);
    element('line', { x1: line, y1: 0, x2: line, y2: size - 1, class: 'grid-line' }, svg);
    const label = element('text', { x: line, y: size - 0.45, class: 'coordinate' }, svg);
    label.textContent = GO_LETTERS[line];
    const number = element('text', { x: -0.6, y: line, class: 'coordinate' }, svg);
    number.textContent = String(size - line);
  }
  for (const [x, y] of starPoints(size)) element('circle', { cx: x, cy: y, r: 0.08, class: 'star' }, svg);
  if (page.ownership) {
    page.ownership.forEach((row, y) => row.forEach((value, x) => {
      if (Math.abs(value) < 0.1) return;
      element('rect', {
        x: x - 0.5, y: y - 0.5, width: 1, height: 1,
        fill: value > 0 ? '#000' : '#fff', opacity: Math.min(0.6, Math.abs(value) * 0.6),
        class: 'ownership', 'data-ownership': value.toFixed(2),
      }, svg);
    }));
  }
  board.stones.forEach((row, y) => [...row].forEach((cell, x) => {
    if (cell === '.') return;
    const vertex = goVertex(x, y, size);
    const color = cell === 'X' ? 'b' : 'w';
    const dead = page.phase !== 'play' && page.dead.has(vertex);
    element('circle', {
      cx: x, cy: y, r: 0.47,
      class: `stone stone-${color}${dead ? ' dead' : ''}`,
      'data-stone': vertex, 'data-color': color, 'data-dead': dead ? '1' : '0',
    }, svg);
  }));
  const last = board.last_move && goPlace(board.last_move, size);
  if (last) element('circle', { cx: last.x, cy: last.y, r: 0.22, class: 'last-move' }, svg);
  const ko = board.ko && goPlace(board.ko, size);
  if (ko) element('rect', { x: ko.x - 0.2, y: ko.y - 0.2, width: 0.4, height: 0.4, class: 'ko-mark' }, svg);
  const hinted = page.hint && goPlace(page.hint, size);
  if (hinted) element('circle', { cx: hinted.x, cy: hinted.y, r: 0.4, class: 'hint-mark' }, svg);
  for (let y = 0; y < size; y += 1) {
    for (let x = 0; x < size; x += 1) {
      const vertex = goVertex(x, y, size);
      const target = element('rect', {
        x: x - 0.5, y: y - 0.5, width: 1, height: 1, class: 'click-target', 'data-vertex': vertex,
      }, svg);
      target.addEventListener('click', () => {
        if (page.phase === 'scoring') toggleDead(vertex);
        else playerMove(vertex);
      });
    }
  }
}

function starPoints(size) {
  if (size < 7) return [];
  const edge = size >= 13 ? 3 : 2;
  const far = size - 1 - edge;
  const middle = (size - 1) / 2;
  const points = [[edge, edge], [edge, far], [far, edge], [far, far]];
  if (size % 2 === 1) points.push([middle, middle]);
  if (size >= 19) points.push([edge, middle], [far, middle], [middle, edge], [middle, far]);
  return points;
}

function drawMargo(svg) {
  const board = page.board;
  const grid = board.grid;
  svg.setAttribute('viewBox', `-1.6 -1.2 ${grid + 2.2} ${grid + 2}`);
  element('rect', { x: -1.6, y: -1.2, width: grid + 2.2, height: grid + 2, fill: 'var(--wood)', rx: 0.4 }, svg);
  for (let x = 0; x < grid; x += 2) {
    const label = element('text', { x, y: grid + 0.4, class: 'coordinate' }, svg);
    label.textContent = MARGO_LETTERS[x];
  }
  for (let y = 0; y < grid; y += 2) {
    const label = element('text', { x: -1.2, y, class: 'coordinate' }, svg);
    label.textContent = String(grid - y);
  }
  for (let x = 0; x < grid; x += 2) {
    for (let y = 0; y < grid; y += 2) element('circle', { cx: x, cy: y, r: 0.3, class: 'hole' }, svg);
  }
  const balls = [...board.balls].sort((a, b) => a.level - b.level);
  for (const ball of balls) {
    const place = margoPlace(ball.vertex, grid);
    const radius = 0.96 - 0.1 * ball.level;
    const shade = ball.color === 'b' ? `url(#ball-b)` : `url(#ball-w)`;
    element('circle', {
      cx: place.x + 0.06, cy: place.y + 0.08, r: radius, fill: 'rgba(0,0,0,0.25)',
    }, svg);
    const circle = element('circle', {
      cx: place.x, cy: place.y, r: radius, fill: shade,
      class: `ball ball-${ball.color} ${ball.state}`, stroke: ball.color === 'b' ? '#000' : '#777',
      'stroke-width': 0.04,
      'data-ball': ball.vertex, 'data-level': ball.level, 'data-state': ball.state, 'data-color': ball.color,
    }, svg);
    if (ball.state === 'buried') circle.setAttribute('stroke-dasharray', '0.1 0.08');
    if (ball.state === 'zombie') {
      element('circle', { cx: place.x, cy: place.y, r: radius * 0.6, class: 'zombie-mark' }, svg);
    }
    if (ball.level > 0 || ball.state !== 'free') {
      const label = element('text', {
        x: place.x, y: place.y, class: 'level-label', fill: ball.color === 'b' ? '#eee' : '#222',
      }, svg);
      label.textContent = `${ball.level}${ball.state === 'zombie' ? 'z' : ''}${ball.state === 'buried' ? '#' : ''}`;
    }
  }
  const last = board.last_move && board.last_move !== 'swap' && margoPlace(board.last_move, grid);
  if (last) element('circle', { cx: last.x, cy: last.y, r: 0.3, class: 'last-move' }, svg);
  const hinted = page.hint && page.hint !== 'swap' && margoPlace(page.hint, grid);
  if (hinted) element('circle', { cx: hinted.x, cy: hinted.y, r: 0.6, class: 'hint-mark' }, svg);
  defineBallShades(svg);
  for (let x = 0; x < grid; x += 1) {
    for (let y = 0; y < grid; y += 1) {
      if ((x + y) % 2 !== 0) continue;
      const vertex = `${MARGO_LETTERS[x]}${grid - y}`;
      const target = element('circle', {
        cx: x, cy: y, r: 0.55, class: 'click-target', 'data-vertex': vertex,
      }, svg);
      target.addEventListener('click', () => playerMove(vertex));
    }
  }
}

function defineBallShades(svg) {
  const definitions = element('defs', {}, svg);
  for (const [color, light, dark] of [['b', '#666', '#050505'], ['w', '#ffffff', '#c8c8c8']]) {
    const gradient = element('radialGradient', { id: `ball-${color}`, cx: '35%', cy: '30%', r: '75%' }, definitions);
    element('stop', { offset: '0%', 'stop-color': light }, gradient);
    element('stop', { offset: '100%', 'stop-color': dark }, gradient);
  }
}

function drawAbalone(svg) {
  const board = page.board;
  svg.setAttribute('viewBox', '-1.2 -1 10.4 9');
  element('polygon', {
    points: [[-0.9, 3.464], [1, -0.75], [7, -0.75], [8.9, 3.464], [7, 7.68], [1, 7.68]]
      .map(([x, y]) => `${x},${y}`).join(' '),
    fill: '#8a6a34',
  }, svg);
  const marbles = new Map(board.marbles.map((marble) => [marble.cell, marble.color]));
  const before = page.previous && page.previous.game === 'abalone'
    ? new Map(page.previous.marbles.map((marble) => [marble.cell, marble.color])) : null;
  const hinted = new Set();
  if (page.hint) for (const match of page.hint.matchAll(/[a-i][1-9]/g)) hinted.add(match[0]);
  defineBallShades(svg);
  for (const cell of abaloneAllCells()) {
    const name = abaloneName(cell);
    const { x, y } = abalonePoint(cell);
    element('circle', { cx: x, cy: y, r: 0.46, class: 'hex-cell' }, svg);
    const color = marbles.get(name);
    if (color) {
      const selected = page.selection.includes(name);
      element('circle', {
        cx: x, cy: y, r: 0.42, fill: `url(#ball-${color})`,
        class: `marble marble-${color}${selected ? ' selected' : ''}`,
        stroke: selected ? '#1d7bd6' : (color === 'b' ? '#000' : '#777'),
        'stroke-width': selected ? 0.12 : 0.03,
        'data-marble': name, 'data-color': color,
      }, svg);
    }
    if (before && before.get(name) !== color) {
      element('circle', { cx: x, cy: y, r: 0.3, class: 'changed', 'data-changed': name }, svg);
    }
    if (hinted.has(name)) element('circle', { cx: x, cy: y, r: 0.36, class: 'hint-mark' }, svg);
    if (!color) {
      const label = element('text', { x, y, class: 'cell-name' }, svg);
      label.textContent = name;
    }
    const target = element('circle', { cx: x, cy: y, r: 0.48, class: 'click-target', 'data-cell': name }, svg);
    target.addEventListener('click', () => abaloneClick(name));
  }
  $('directions').hidden = !(page.selection.length > 0 && playerToMove());
}

// Abalone: a click on an own marble selects it (or lets it go); a click on another cell
// next to a selected marble moves the selection that way.
function abaloneClick(name) {
  if (!playerToMove() || page.busy) return;
  const own = page.board.marbles.some((marble) => marble.cell === name
    && marble.color === page.settings.color);
  if (own) {
    if (page.selection.includes(name)) page.selection = page.selection.filter((cell) => cell !== name);
    else if (page.selection.length < 3) page.selection = [...page.selection, name];
    else showMessage('At most three marbles move together.', 'error', 'selection');
    draw();
    return;
  }
  const clicked = abaloneCell(name);
  for (const selected of page.selection) {
    const direction = abaloneDirection(abaloneCell(selected), clicked);
    if (direction) {
      abaloneGo(direction);
      return;
    }
  }
  if (page.selection.length === 0) {
    showMessage('Choose one to three of your marbles first.', 'error', 'selection');
  }
}

function abaloneGo(direction) {
  if (page.selection.length === 0) return;
  const result = abaloneMove(page.selection, direction);
  if (result.error) {
    showMessage(result.error, 'error', 'selection');
    return;
  }
  playerMove(result.move);
}

function drawFacts() {
  const board = page.board;
  const settings = page.settings;
  const facts = [['Game', `${settings.game[0].toUpperCase()}${settings.game.slice(1)}`]];
  facts.push(['You', COLOR_NAMES[settings.color]], ['Level', settings.level]);
  if (board.game === 'go') {
    facts.push(['Board', `${board.size}x${board.size}`], ['Rules', board.rules], ['Komi', String(board.komi)]);
    facts.push(['Captured by Black', String(board.captures.b)], ['Captured by White', String(board.captures.w)]);
  } else if (board.game === 'margo') {
    facts.push(['Board', `${board.size}x${board.size}`]);
    facts.push(['Black balls', String(board.counts.b)], ['White balls', String(board.counts.w)]);
  } else {
    facts.push(['Start', board.start]);
    facts.push(['Pushed off by Black', `${board.ejected.b} of 6`], ['Pushed off by White', `${board.ejected.w} of 6`]);
    facts.push(['Ply', `${board.ply} of ${board.max_plies}`]);
  }
  facts.push(['Moves', String(board.moves)]);
  const list = $('facts');
  list.replaceChildren();
  for (const [name, value] of facts) {
    const term = document.createElement('dt');
    term.textContent = name;
    const definition = document.createElement('dd');
    definition.textContent = value;
    definition.dataset.fact = name;
    list.append(term, definition);
  }
  $('result').textContent = page.result ? describeResult(page.result === '0' ? 'Draw' : page.result) : '—';
  $('result').dataset.score = page.result || '';
}

function updateControls() {
  const board = page.board;
  const game = page.settings?.game;
  const yourTurn = playerToMove() && !page.busy && !page.thinking;
  let turn = '';
  if (page.phase === 'scoring') turn = 'Marking dead stones';
  else if (page.phase === 'over' || (board && !playing())) turn = 'Game over';
  else if (sideToMove()) {
    const side = sideToMove();
    turn = side === page.settings.color ? `Your move (${COLOR_NAMES[side]})`
      : `ishi's move (${COLOR_NAMES[side]})`;
  }
  $('turn').textContent = turn;
  $('turn').dataset.toMove = sideToMove() || '';
  $('pass').hidden = game !== 'go';
  $('pass').disabled = !yourTurn;
  $('swap').hidden = !(game === 'margo' && board?.swap && yourTurn);
  $('hint').disabled = !yourTurn;
  $('undo').disabled = page.busy || page.thinking
    || !page.moves.some((played) => played.color === page.settings?.color);
  $('resign').disabled = page.phase !== 'play' || page.thinking;
  $('ownership').hidden = game !== 'go';
  $('ownership').disabled = page.busy || page.thinking || page.phase !== 'play';
  $('ownership').setAttribute('aria-pressed', page.ownership ? 'true' : 'false');
  $('record').disabled = !board;
  $('new-game').disabled = page.thinking || page.busy;
  if (game !== 'abalone') $('directions').hidden = true;
}

// ---------------------------------------------------------------------------------------
// Set-up form and start

function fillSizes() {
  const game = $('game').value;
  const select = $('size');
  select.replaceChildren();
  for (const [value, label] of SIZES[game]) {
    const option = document.createElement('option');
    option.value = value;
    option.textContent = label;
    select.appendChild(option);
  }
  select.value = DEFAULT_SIZE[game];
  $('size-label').firstChild.textContent = game === 'abalone' ? 'Start ' : 'Board ';
  $('go-options').hidden = game !== 'go';
}

function formSettings() {
  return {
    game: $('game').value,
    size: $('size').value,
    color: $('color').value,
    level: $('level').value,
    rules: $('rules').value,
    komi: $('komi').value || '7.5',
  };
}

function wire() {
  $('game').addEventListener('change', fillSizes);
  $('rules').addEventListener('change', () => {
    $('komi').value = $('rules').value === 'japanese' ? '6.5' : '7.5';
  });
  $('new-game').addEventListener('click', () => run(() => newGame(formSettings())));
  $('pass').addEventListener('click', () => playerMove('pass'));
  $('swap').addEventListener('click', () => playerMove('swap'));
  $('hint').addEventListener('click', () => run(hint));
  $('undo').addEventListener('click', () => run(undo));
  $('resign').addEventListener('click', () => run(() => finish(
    `${COLOR_NAMES[other(page.settings.color)][0]}+Resign`, 'You resigned.',
  )));
  $('ownership').addEventListener('click', () => run(toggleOwnership));
  $('record').addEventListener('click', () => run(saveRecord));
  $('count').addEventListener('click', () => run(countScore));
  $('resume').addEventListener('click', () => {
    page.phase = 'play';
    page.playOn = true;
    page.dead = new Set();
    $('scoring').hidden = true;
    draw();
    run(async () => { if (engineToMove()) await engineMove(); });
  });
  $('clear-selection').addEventListener('click', () => { page.selection = []; draw(); });
  for (const button of document.querySelectorAll('[data-direction]')) {
    button.addEventListener('click', () => abaloneGo(button.dataset.direction));
  }
}

function run(action) {
  return Promise.resolve().then(action).catch((error) => {
    console.error(error);
    showMessage(String(error.message || error));
  });
}

async function start() {
  wire();
  fillSizes();
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  page.connection = new Connection(`${scheme}://${location.host}/ws`);
  page.connection.onstate = (state, reason) => {
    const connection = $('connection');
    connection.dataset.state = state;
    connection.textContent = state === 'open' ? 'connected' : `disconnected${reason ? `: ${reason}` : ''}`;
    if (state === 'closed') showMessage(`The connection to the server closed${reason ? `: ${reason}` : ''}. Reload the page to play again.`);
  };
  await page.connection.open();
  // A reload picks the game up where it was: the same start, the same moves replayed.
  let kept = null;
  try {
    kept = JSON.parse(sessionStorage.getItem(STORAGE_KEY) || 'null');
  } catch (error) {
    kept = null;
  }
  if (kept && kept.settings) {
    for (const field of ['game', 'color', 'level', 'rules', 'komi']) $(field).value = kept.settings[field];
    fillSizes();
    $('size').value = kept.settings.size;
    await newGame(kept.settings, kept.moves || [], kept.result || null);
  } else {
    await newGame(formSettings());
  }
  document.body.dataset.ready = '1';
}

window.ishiProtocolErrors = () => page.connection.protocolErrors;
run(start);
