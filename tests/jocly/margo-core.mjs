// Shared glue between Jocly's Margo model (npm package jocly 0.9.13) and the
// designer's notation used by ishi (see games-protocol.md).
//
// Jocly internals used here (all from dist/node, the package's Node build):
//   game.g.Coord[pos] = [row, col, height]; row 0 is Jocly's "north" (top of
//     its 2D view), col 0 is "west". Level h holds (n-h)x(n-h) points and
//     (h,row,col) rests on (h-1,row..row+1,col..col+1).
//   game.mBoard.board[pos] = 0 empty, 1 Jocly player A ("white" balls,
//     moves first), 2 Jocly player B ("black" balls).
//   game.mBoard.GenerateMoves(game) fills game.mBoard.mMoves with
//     {act:'+', pos:'<string index>', clr:1|2, nextBoard, remove}; an empty
//     list sets mFinished / mWinner.
//
// Mapping to the designer's grid: designer row r counts from the bottom, so
//   r = (n-1-h) - row, c = col, letter index = 2c+h, number = 2r+h+1.
// (Any symmetry of the square would give the same rules; this one keeps
// Jocly's 2D picture the right way up.)

import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

// Jocly prints diagnostics with console.log/warn; keep stdout clean for
// protocols by sending everything to stderr.
for (const k of ['log', 'info', 'warn', 'debug']) {
  console[k] = (...a) => console.error(...a);
}

const Jocly = require('jocly');

export const GAME_BY_SIZE = {
  4: 'shibumi-spargo',
  5: 'margo5',
  6: 'margo6',
  7: 'margo7',
  8: 'margo8',
};
export const SIZES = Object.keys(GAME_BY_SIZE).map(Number);

// Letters from the left, INCLUDING I (the designer's convention).
export const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

// Seedable replacement for Math.random (mulberry32, 32-bit state).
export function seedMathRandom(seed) {
  let s = (Number(seed) >>> 0) || 0x9e3779b9;
  Math.random = function () {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Virtual clock: every Date.now() call advances by `stepMs`. Used by the
// --deterministic mode so that Jocly's UCT loop (which checks its node/loop
// budget only between 100 ms batches of real time) checks it after every
// iteration, which makes a seeded search independent of machine speed.
export function installVirtualClock(stepMs = 1000) {
  let t = Date.now();
  Date.now = () => (t += stepMs);
}

// The AI levels as shipped in the size's config, keyed by the first word of
// the label, lower case: fast, beginner, easy, medium, confirmed, slow.
export async function levelsFor(size) {
  const cfg = await Jocly.getGameConfig(GAME_BY_SIZE[size]);
  const out = {};
  for (const lv of cfg.model.levels) {
    out[lv.label.split(/[ (]/)[0].toLowerCase()] = lv;
  }
  return out;
}

export class MargoGame {
  static async create(size) {
    const name = GAME_BY_SIZE[size];
    if (!name) throw new Error(`unsupported size ${size}`);
    const match = await Jocly.createMatch(name);
    return new MargoGame(match, size);
  }

  constructor(match, size) {
    this.match = match;
    this.game = match.game;
    this.size = size;
    const coord = this.game.g.Coord;
    this.npos = coord.length;
    this.vertexOfPos = [];
    this.posOfCell = new Map(); // "x,y" (0-based grid cell) -> [pos...]
    this.hOfPos = [];
    for (let pos = 0; pos < coord.length; pos++) {
      const [row, col, h] = coord[pos];
      const r = size - 1 - h - row;
      const x = 2 * col + h;
      const y = 2 * r + h; // number - 1
      this.vertexOfPos[pos] = LETTERS[x] + String(y + 1);
      this.hOfPos[pos] = h;
      const key = `${x},${y}`;
      if (!this.posOfCell.has(key)) this.posOfCell.set(key, []);
      this.posOfCell.get(key).push(pos);
    }
  }

  reset() {
    this.game.BackTo(0, []);
    this.game.mFullPlayedMoves = [];
  }

  // Jocly side to move: 1 = player A (first mover), -1 = player B.
  who() {
    return this.game.mWho;
  }

  plies() {
    return this.game.mPlayedMoves.length;
  }

  moves() {
    const b = this.game.mBoard;
    if (!b.mMoves || b.mMoves.length === 0) b.GenerateMoves(this.game);
    return b.mMoves;
  }

  legalVertices() {
    return this.moves().map((m) => this.vertexOfPos[Number(m.pos)]);
  }

  // Parse a designer-notation vertex; returns the grid cell key or null.
  static cellOf(vertex, size) {
    const m = /^([A-Za-z])([0-9]{1,2})$/.exec(String(vertex).trim());
    if (!m) return null;
    const x = LETTERS.indexOf(m[1].toUpperCase());
    const y = Number(m[2]) - 1;
    const g = 2 * size - 1;
    if (x < 0 || x >= g || y < 0 || y >= g || (x + y) % 2 !== 0) return null;
    return `${x},${y}`;
  }

  canonical(vertex) {
    const key = MargoGame.cellOf(vertex, this.size);
    if (!key) return null;
    const [x, y] = key.split(',').map(Number);
    return LETTERS[x] + String(y + 1);
  }

  // The Jocly move for a vertex, or null when Jocly has no such legal move.
  findMove(vertex) {
    const v = this.canonical(vertex);
    if (!v) return null;
    for (const m of this.moves()) {
      if (this.vertexOfPos[Number(m.pos)] === v) return m;
    }
    return null;
  }

  apply(move) {
    this.game.ApplyMove(move);
    this.game.InvertWho();
  }

  play(vertex) {
    const m = this.findMove(vertex);
    if (!m) return false;
    this.apply(m);
    return true;
  }

  undo() {
    const n = this.plies();
    if (n === 0) return false;
    const moves = this.game.mPlayedMoves.slice(0, n - 1);
    this.game.BackTo(n - 1, moves);
    this.game.mFullPlayedMoves = moves.slice();
    return true;
  }

  // A Jocly board with the same ball contents and side to move as the current one, but with
  // the incremental state (groups, their freedoms, the position-to-group and freedom-to-group
  // maps, playables, ball counts, Zobrist sign) rebuilt from the contents alone, the way
  // Jocly's own BuildGroup in margo-model.js builds a group: same-colour contacts through the
  // 12 directions, a flat contact cut when both straddlers above it are enemy, a buried ball
  // (one with a ball at Over) in no group (posGroup 0), freedoms the empty level-0 points next
  // to a group's balls. Moves asked of it go through Jocly's own ExtendMove and repetition
  // test (the game's mVisitedBoards, the same history).
  // With `contents`, the board is built from those contents instead (same side to move).
  freshBoard(contents = this.game.mBoard.board) {
    const G = this.game;
    const old = G.mBoard;
    const graph = G.g.Graph;
    const coord = G.g.Coord;
    const over = G.g.Over;
    const board = Object.create(Object.getPrototypeOf(old));
    board.CopyFrom(old);
    board.board = contents.slice();
    const buried = (p) => over[p] != null && contents[over[p]] !== 0;
    const cutting = { 4: [8, 10], 5: [9, 11], 6: [8, 9], 7: [10, 11] };
    board.groups = {};
    board.posGroup = {};
    board.posFree = {};
    let gid = 1;
    for (let p0 = 0; p0 < this.npos; p0++) {
      const side = contents[p0];
      if (!side) continue;
      if (buried(p0)) {
        board.posGroup[p0] = 0;
        continue;
      }
      if (board.posGroup[p0] !== undefined) continue;
      const group = { side, p: {}, pCount: 0, f: {}, fCount: 0 };
      const queue = [p0];
      group.p[p0] = true;
      group.pCount = 1;
      while (queue.length) {
        const p1 = queue.pop();
        for (let dir = 0; dir < 12; dir++) {
          const p2 = graph[p1][dir];
          if (p2 == null) continue;
          if (contents[p2] === side) {
            if (group.p[p2] || buried(p2)) continue;
            const cut = cutting[dir];
            if (cut && contents[graph[p1][cut[0]]] === 3 - side && contents[graph[p1][cut[1]]] === 3 - side) continue;
            group.p[p2] = true;
            group.pCount++;
            queue.push(p2);
          } else if (contents[p2] === 0 && coord[p2][2] === 0 && !group.f[p2]) {
            group.f[p2] = true;
            group.fCount++;
          }
        }
      }
      const id = gid++;
      board.groups[id] = group;
      for (const p in group.p) board.posGroup[p] = id;
      for (const f in group.f) {
        if (!board.posFree[f]) board.posFree[f] = {};
        board.posFree[f][id] = true;
      }
    }
    board.groupMaxId = gid;
    // Playables: empty holes, and empty points resting on four balls.
    board.playables = {};
    board.ballCount = [0, 0, 0];
    let zSign = 0;
    for (let p = 0; p < this.npos; p++) {
      if (contents[p]) {
        board.ballCount[contents[p]]++;
        zSign = G.zobrist.update(zSign, 'board', contents[p] - 1, p);
      } else if (coord[p][2] === 0 || graph[p].slice(0, 4).every((q) => q != null && contents[q])) {
        board.playables[p] = true;
      }
    }
    board.zSign = zSign;
    board.mMoves = [];
    return board;
  }

  // Jocly's rules applied to board contents alone, with no incremental state: place `side`'s
  // ball at `pos`; build every group from the contents (as freshBoard does); remove each
  // opponent group without freedom in one pass, the group membership fixed before any removal
  // (so a ball buried at the start belongs to no group and stays), balls highest first, a ball
  // kept while any of its 4 "above" points holds a ball; then rebuild the groups and refuse the
  // move when a friendly group without freedom has a ball with nothing above it (Jocly's
  // suicide test). Returns {legal, contents, removed, dead}: `removed` the vertices/levels
  // taken off, `dead` the failing friendly groups, each {balls, placed: whether it holds the
  // placed ball}.
  judgeContents(contents0, pos, side) {
    const G = this.game;
    const graph = G.g.Graph;
    const coord = G.g.Coord;
    const over = G.g.Over;
    const contents = contents0.slice();
    contents[pos] = side;
    const buriedIn = (c, p) => over[p] != null && c[over[p]] !== 0;
    // Filled in after the captures: balls buried before the move and no longer buried.
    const unburied = new Set();
    const name = (p) => this.vertexOfPos[p] + '/' + this.hOfPos[p];
    const groupsOf = (c) => {
      const buried = (p) => over[p] != null && c[over[p]] !== 0;
      const cutting = { 4: [8, 10], 5: [9, 11], 6: [8, 9], 7: [10, 11] };
      const seen = new Set();
      const out = [];
      for (let p0 = 0; p0 < this.npos; p0++) {
        const s = c[p0];
        if (!s || buried(p0) || seen.has(p0)) continue;
        const balls = [p0];
        const free = new Set();
        const freeByOthers = new Set();
        seen.add(p0);
        for (let i = 0; i < balls.length; i++) {
          const p1 = balls[i];
          for (let dir = 0; dir < 12; dir++) {
            const p2 = graph[p1][dir];
            if (p2 == null) continue;
            if (c[p2] === s) {
              if (seen.has(p2) || buried(p2)) continue;
              const cut = cutting[dir];
              if (cut && c[graph[p1][cut[0]]] === 3 - s && c[graph[p1][cut[1]]] === 3 - s) continue;
              seen.add(p2);
              balls.push(p2);
            } else if (c[p2] === 0 && coord[p2][2] === 0) {
              free.add(p2);
              if (!unburied.has(p1)) freeByOthers.add(p2);
            }
          }
        }
        out.push({ side: s, balls, free: free.size, freeByOthers: freeByOthers.size });
      }
      return out;
    };
    const pinned = (c, p) => graph[p].slice(8, 12).some((q) => q != null && c[q]);
    const removed = [];
    for (const group of groupsOf(contents)) {
      if (group.side !== 3 - side || group.free) continue;
      const order = group.balls.slice().sort((a, b) => coord[b][2] - coord[a][2]);
      for (const p of order) {
        if (!pinned(contents, p)) {
          contents[p] = 0;
          removed.push(name(p));
        }
      }
    }
    for (let p = 0; p < this.npos; p++) {
      if (contents[p] && buriedIn(contents0, p) && !buriedIn(contents, p)) unburied.add(p);
    }
    const dead = [];
    // Friendly groups whose freedoms all lie next to balls this move un-buried: Jocly's
    // bookkeeping never credits those freedoms (see NOTES.md), so it calls them freedomless.
    const unburiedOnly = [];
    for (const group of groupsOf(contents)) {
      if (group.side !== side) continue;
      const loose = group.balls.some((p) => !pinned(contents, p));
      if (!group.free && loose) {
        dead.push({ balls: group.balls.map(name).sort(), placed: group.balls.includes(pos) });
      }
      if (group.free && !group.freeByOthers && loose) unburiedOnly.push(group.balls.map(name).sort());
    }
    return { legal: dead.length === 0, contents, removed: removed.sort(), dead, unburiedOnly, unburied: [...unburied].map(name).sort() };
  }

  // How the incremental state differs from the fresh one, as short texts ([] when it does not):
  // groups compared as sets of (side, balls, freedoms), ignoring the group ids.
  staleness(fresh) {
    const old = this.game.mBoard;
    const out = [];
    const describe = (b) => {
      const list = [];
      for (const id in b.groups) {
        const g = b.groups[id];
        const balls = Object.keys(g.p).map((p) => this.vertexOfPos[p] + '/' + this.hOfPos[p]).sort();
        const free = Object.keys(g.f).map((p) => this.vertexOfPos[p]).sort();
        const bad = g.pCount !== balls.length || g.fCount !== free.length ? ' (counts ' + g.pCount + '/' + g.fCount + ')' : '';
        list.push((g.side === 1 ? 'A ' : 'B ') + balls.join(' ') + ' free ' + free.join(' ') + bad);
      }
      return list.sort();
    };
    const a = describe(old);
    const b = new Set(describe(fresh));
    const aSet = new Set(a);
    for (const x of a) if (!b.has(x)) out.push('kept ' + x);
    for (const x of b) if (!aSet.has(x)) out.push('fresh ' + x);
    for (let p = 0; p < this.npos; p++) {
      if (old.board[p] && (old.posGroup[p] === 0) !== (fresh.posGroup[p] === 0)) out.push('burial of ' + this.vertexOfPos[p]);
      if (!!old.playables[p] !== !!fresh.playables[p]) out.push('playable ' + this.vertexOfPos[p]);
    }
    if (old.zSign !== fresh.zSign) out.push('zSign');
    if (old.ballCount[1] !== fresh.ballCount[1] || old.ballCount[2] !== fresh.ballCount[2]) out.push('ballCount');
    return out;
  }

  // The legal vertices of a board (Jocly's GenerateAllMoves, which applies the repetition
  // test), and the refused moves whose resulting board has a Zobrist sign seen before although
  // no earlier board has those contents: a 32-bit hash collision. `history` maps a sign to the
  // content strings of the boards recorded under it.
  legalOf(board, history, moves = board.GenerateAllMoves(this.game)) {
    const G = this.game;
    const legal = moves.map((m) => this.vertexOfPos[Number(m.pos)]);
    const collisions = [];
    const judged = [];
    const listed = new Set(legal);
    const side = board.mWho === 1 ? 1 : 2;
    const over = G.g.Over;
    const name = (p) => this.vertexOfPos[p] + '/' + this.hOfPos[p];
    // Allowed moves whose capture removes a ball that was buried before the move: what
    // Jocly's rules make of the same move without that removal.
    for (const m of moves) {
      const remove = (m.remove || []).map(Number);
      const buriedRemoved = remove.filter((p) => over[p] != null && board.board[over[p]] !== 0);
      if (!buriedRemoved.length) continue;
      const j = this.judgeContents(board.board, Number(m.pos), side);
      const extra = remove.map(name).filter((x) => !j.removed.includes(x)).sort();
      const missing = j.removed.filter((x) => !remove.map(name).includes(x));
      judged.push({ v: this.vertexOfPos[Number(m.pos)], jocly: true, judge: j.legal, extra, missing, buried_removed: buriedRemoved.map(name).sort(), dead: j.dead });
    }
    for (const m of board.MakeFreeMoves(G)) {
      const v = this.vertexOfPos[Number(m.pos)];
      if (listed.has(v)) continue;
      const data = board.ExtendMove(G, m.pos);
      if (data === null) {
        // Refused by ExtendMove: do Jocly's rules on the contents alone refuse it too?
        const j = this.judgeContents(board.board, Number(m.pos), side);
        if (j.legal) {
          const after = j.contents.flatMap((c, p) => (c ? [[this.vertexOfPos[p], this.hOfPos[p], c]] : []));
          judged.push({ v, jocly: false, judge: true, unburied_only: j.unburiedOnly, unburied: j.unburied, removed: j.removed, board: after });
        }
        continue;
      }
      const next = data.board.board.slice();
      next[Number(m.pos)] = board.mWho === 1 ? 1 : 2;
      const seen = history.get(data.board.zSign) || [];
      // (a refusal by repetition is the only way a non-null ExtendMove is left out)
      if (!seen.includes(next.join(''))) collisions.push(v);
    }
    return { legal, collisions, judged };
  }

  // Balls in play by Jocly colour: [playerA (clr 1), playerB (clr 2)].
  ballCounts() {
    const bc = this.game.mBoard.ballCount;
    return [bc[1], bc[2]];
  }

  // Occupied points: [{v, h, clr}] with clr 1 = player A, 2 = player B.
  occupied() {
    const out = [];
    const board = this.game.mBoard.board;
    for (let pos = 0; pos < this.npos; pos++) {
      if (board[pos]) out.push({ v: this.vertexOfPos[pos], h: this.hOfPos[pos], clr: board[pos] });
    }
    return out;
  }

  // Runs Jocly's AI for the side to move. Resolves to the vertex chosen.
  async search(level) {
    const res = await this.match.machineSearch({ level });
    const mv = res && res.move;
    if (!mv) return null;
    return this.vertexOfPos[Number(mv.pos)];
  }

  // One text grid per level, designer coordinates, top row first.
  // 'O' = player A ball (Jocly "white"), 'X' = player B, '.' = empty point,
  // a buried ball (one with a ball straight above it, two levels up) is
  // shown in lower case.
  diagram(symA = 'O', symB = 'X') {
    const n = this.size;
    const g = 2 * n - 1;
    const board = this.game.mBoard.board;
    const over = this.game.g.Over;
    const lines = [];
    const cell = new Map();
    for (let pos = 0; pos < this.npos; pos++) cell.set(`${this.vertexOfPos[pos]}/${this.hOfPos[pos]}`, pos);
    for (let h = 0; h < n; h++) {
      if (h > 0 && !this.game.mBoard.board.some((v, p) => v && this.hOfPos[p] >= h) && !this.moves().some((m) => this.hOfPos[Number(m.pos)] === h)) break;
      lines.push(`level ${h}`);
      for (let y = g - 1; y >= 0; y--) {
        let s = String(y + 1).padStart(3) + ' ';
        for (let x = 0; x < g; x++) {
          const pos = cell.get(`${LETTERS[x]}${y + 1}/${h}`);
          if (pos === undefined) s += '  ';
          else {
            const v = board[pos];
            let ch = v === 1 ? symA : v === 2 ? symB : '.';
            if (v && over[pos] != null && board[over[pos]]) ch = v === 1 ? symA.toLowerCase() : symB.toLowerCase();
            s += ' ' + ch;
          }
        }
        lines.push(s);
      }
      lines.push('    ' + Array.from({ length: g }, (_, x) => ' ' + LETTERS[x]).join(''));
    }
    return lines.join('\n');
  }
}
