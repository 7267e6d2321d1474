# `--report-version` makes `version` answer what Lizzie's Leela Zero check wants; `name`
# stays the engine's own.
# ishi-args: --report-version 0.17

1 version
#? [0\.17]
2 name
#? [ishi]
