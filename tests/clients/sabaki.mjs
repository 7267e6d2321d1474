// Drives ishi the way Sabaki does, through Sabaki's own GTP controller (@sabaki/gtp from npm):
// the pipelined attach, komi before boardsize, history sync by undo, analysis with the command
// Sabaki picks, stopped by `protocol_version`, and engine moves through `*-genmove_analyze`.
// The analysis lines are read with the rules of Sabaki's parser (gtp-clients.md §2.5).
//
// Usage: node sabaki.mjs <path-to-ishi> [engine arguments...]
// Prints one line per check; exits 1 on the first failed check.

import gtp from '@sabaki/gtp'

const {Controller, ControllerStateTracker} = gtp

const [binary, ...engineArguments] = process.argv.slice(2)
if (!binary) {
  console.error('usage: node sabaki.mjs <path-to-ishi> [engine arguments...]')
  process.exit(2)
}

function check(condition, what, detail = '') {
  if (!condition) {
    console.log(`FAIL ${what}${detail ? `: ${detail}` : ''}`)
    process.exit(1)
  }
  console.log(`ok ${what}`)
}

function withTimeout(promise, milliseconds, what) {
  let timer
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out: ${what}`)), milliseconds)
    })
  ])
}

// Sabaki's reading of one analysis line: split on `info`, each block must end in a principal
// variation of vertices or lower-case `pass`, the word before it is dropped (it is `pv`), the
// rest alternate key and value; a `move pass` block is dropped; the variation stops at `pass`.
// `floatDialect` says whether win rates are probabilities (kata-) or ten-thousandths (lz-).
function parseLikeSabaki(line, floatDialect) {
  const variations = []
  for (const block of line.split(/\s*info\s+/).slice(1)) {
    const text = block.trim()
    const tail = text.match(/(pass|[A-Za-z]\d+)(\s+(pass|[A-Za-z]\d+))*$/)
    if (tail == null) continue
    const tokens = text.slice(0, tail.index).trim().split(/\s+/).slice(0, -1)
    const fields = {}
    for (let index = 0; index + 1 < tokens.length; index += 2) {
      fields[tokens[index]] = tokens[index + 1]
    }
    const words = tail[0].split(/\s+/)
    const passAt = words.indexOf('pass')
    const moves = passAt < 0 ? words : words.slice(0, passAt)
    if (fields.move == null || !/^[A-Za-z]\d+$/.test(fields.move)) continue
    const winrate = floatDialect ? +fields.winrate * 100 : +fields.winrate / 100
    variations.push({
      vertex: fields.move,
      visits: +fields.visits,
      winrate,
      winrateText: fields.winrate,
      scoreLead: fields.scoreLead != null ? +fields.scoreLead : null,
      moves,
      pvKeyword: text.slice(0, tail.index).trim().split(/\s+/).pop()
    })
  }
  return variations
}

const isVertex = (text, size) => {
  const match = /^([A-HJ-Z])(\d+)$/.exec(text)
  return match != null && 'ABCDEFGHJKLMNOPQRSTUVWXYZ'.indexOf(match[1]) < size && +match[2] >= 1 && +match[2] <= size
}

async function analyse(controller, command, color, floatDialect) {
  const lines = []
  let enoughResolve
  const enough = new Promise(resolve => (enoughResolve = resolve))
  const analysis = controller.sendCommand({name: command, args: [color, '50']}, ({line}) => {
    lines.push(line)
    if (lines.filter(text => text.startsWith('info')).length >= 2) enoughResolve()
  })
  await withTimeout(enough, 15000, `${command} info lines`)
  // Sabaki's sendAbort: a protocol_version written while the engine is busy.
  const stop = controller.sendCommand({name: 'protocol_version'})
  const [analysisResponse, stopResponse] = await withTimeout(
    Promise.all([analysis, stop]),
    5000,
    `${command} stopped by protocol_version`
  )
  check(!analysisResponse.error, `${command}: answered with =`)
  check(lines[0].startsWith('='), `${command}: the = header comes first`, JSON.stringify(lines[0]))
  check(lines[lines.length - 1] === '', `${command}: ends with an empty line`)
  check(stopResponse.content === '2', `${command}: protocol_version answered after the stop`, stopResponse.content)
  const infoLines = lines.filter(text => text.startsWith('info'))
  for (const line of infoLines) {
    const variations = parseLikeSabaki(line, floatDialect)
    check(variations.length > 0, `${command}: Sabaki reads variations`, line)
    for (const variation of variations) {
      if (!isVertex(variation.vertex, 9)) check(false, `${command}: vertex`, variation.vertex)
      if (!(Number.isInteger(variation.visits) && variation.visits > 0)) check(false, `${command}: visits`, line)
      if (!(variation.winrate >= 0 && variation.winrate <= 100)) check(false, `${command}: win rate`, line)
      if (floatDialect !== variation.winrateText.includes('.')) check(false, `${command}: win rate dialect`, line)
      if (variation.pvKeyword !== 'pv') check(false, `${command}: pv is last`, line)
      if (variation.moves[0] !== variation.vertex) check(false, `${command}: pv starts with the move`, line)
      if (!variation.moves.every(move => isVertex(move, 9))) check(false, `${command}: pv vertices`, line)
      if (floatDialect && !Number.isFinite(variation.scoreLead)) check(false, `${command}: scoreLead`, line)
    }
  }
  check(infoLines.length >= 2, `${command}: ${infoLines.length} info lines, all read as Sabaki reads them`)
}

async function main() {
  const controller = new Controller(binary, engineArguments)
  const tracker = new ControllerStateTracker(controller)
  const sent = []
  const stderr = []
  controller.on('command-sent', ({command}) => sent.push(command.name))
  controller.on('stderr', ({content}) => stderr.push(content))
  controller.start()

  // Attach: Sabaki pipelines these four and reads list_commands without trimming.
  const [name, version, protocol, list] = await withTimeout(
    Promise.all(['name', 'version', 'protocol_version', 'list_commands'].map(command => controller.sendCommand({name: command}))),
    5000,
    'attach'
  )
  check(name.content === 'ishi', 'name is ishi')
  check(!version.error && version.content.length > 0, `version ${version.content}`)
  check(protocol.content === '2', 'protocol_version 2')
  const commands = list.content.split('\n')
  check(commands.every(command => command === command.trim() && command.length > 0), 'list_commands has bare names')
  for (const needed of ['undo', 'komi', 'boardsize', 'play', 'genmove', 'lz-analyze', 'kata-analyze']) {
    check(commands.includes(needed), `list_commands has ${needed}`)
  }
  check(!commands.includes('analyze'), 'plain analyze is not advertised')
  const analyzeCommand = ['analyze', 'kata-analyze', 'lz-analyze'].find(command => commands.includes(command))
  check(analyzeCommand === 'kata-analyze', `Sabaki picks ${analyzeCommand}`)
  const genmoveCommand = ['genmove_analyze', 'kata-genmove_analyze', 'lz-genmove_analyze'].find(command =>
    commands.includes(command)
  )

  // Sync a game: komi goes before boardsize, then the moves.
  const play = (color, vertex) => ({name: 'play', args: [color, vertex]})
  const mainLine = [play('B', 'E5'), play('W', 'C3'), play('B', 'G7'), play('W', 'G3')]
  sent.length = 0
  await withTimeout(tracker.sync({komi: 6.5, boardsize: [9, 9], history: mainLine}), 30000, 'first sync')
  check(sent.indexOf('komi') >= 0 && sent.indexOf('komi') < sent.indexOf('boardsize'), 'komi is sent before boardsize', sent.join(' '))
  const komi = await controller.sendCommand({name: 'get_komi'})
  check(komi.content === '6.5', 'komi survives boardsize and clear_board', komi.content)

  // Switch to a variation sharing the first three moves: Sabaki undoes (it does so when fewer
  // moves are undone than kept) and replays.
  const variation = [play('B', 'E5'), play('W', 'C3'), play('B', 'G7'), play('W', 'D6'), play('B', 'F4')]
  sent.length = 0
  await withTimeout(tracker.sync({komi: 6.5, boardsize: [9, 9], history: variation}), 30000, 'variation sync')
  check(sent.filter(command => command === 'undo').length === 1, 'the variation is reached with one undo', sent.join(' '))
  check(!sent.includes('clear_board'), 'no clear_board fallback (every undo and play succeeded)')
  const record = await controller.sendCommand({name: 'printsgf'})
  check(/;B\[ee\];W\[cg\];B\[gc\];W\[dd\];B\[ff\]/.test(record.content.replace(/\s/g, '')), 'the engine holds the variation', record.content)

  // Analysis with the command Sabaki picks and the Leela Zero dialect, each stopped by
  // protocol_version. White is to move.
  await analyse(controller, analyzeCommand, 'W', true)
  await analyse(controller, 'lz-analyze', 'W', false)

  // An engine move, as Sabaki asks for it.
  if (genmoveCommand != null) {
    const lines = []
    const response = await withTimeout(
      controller.sendCommand({name: genmoveCommand, args: ['W', '50']}, ({line}) => lines.push(line)),
      60000,
      genmoveCommand
    )
    check(!response.error, `${genmoveCommand} answered`)
    const playLine = lines.find(line => /^play\s+/.test(line.trim()))
    check(playLine != null, `${genmoveCommand} has a play line`, lines.join('|'))
    const vertex = playLine.trim().split(/\s+/)[1]
    check(isVertex(vertex, 9) || vertex === 'pass' || vertex === 'resign', `${genmoveCommand} plays ${vertex}`)
    check(lines.indexOf(playLine) === lines.length - 2, 'play is the last line before the empty line', lines.join('|'))
    const history = tracker.state.history.map(entry => entry.args.join(' '))
    check(vertex === 'resign' || history[history.length - 1] === `W ${vertex}`, 'the tracker records the move', history.join(','))
  } else {
    const response = await withTimeout(controller.sendCommand({name: 'genmove', args: ['W']}), 60000, 'genmove')
    check(!response.error && response.content.length > 0, `genmove plays ${response.content}`)
  }

  // Commands sent while analysing are answered in order: a play stops the analysis and runs.
  const interrupted = controller.sendCommand({name: 'lz-analyze', args: ['B', '10']})
  const played = controller.sendCommand({name: 'play', args: ['B', 'pass']})
  const [, playResponse] = await withTimeout(Promise.all([interrupted, played]), 30000, 'play during analysis')
  check(!playResponse.error, 'a play sent during analysis is executed')

  await withTimeout(controller.stop(3000), 30000, 'quit')
  check(controller.process == null, 'the engine quit within Sabaki\'s 3 s')
  const noisy = stderr.filter(line => /^(info|play|=|\?)/.test(line))
  check(noisy.length === 0, 'nothing on stderr looks like engine output', noisy.join('|'))
  console.log('sabaki: all checks passed')
}

main().catch(error => {
  console.log(`FAIL ${error.message}`)
  process.exit(1)
})
