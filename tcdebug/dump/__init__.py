"""The dump folder: `session.json` (an index) plus one readable text file per stage.

Layout::

    OUT/session.json
    OUT/output.txt                      the script's stdout and stderr
    OUT/compiles/0-0/dynamo_graph.py
    OUT/compiles/0-0/kernel_source.forward.py         named by the stage key only: a new stage renames no file
    OUT/compiles/0-0/kernels/forward/cpp_fused_relu_0.cpp   one folder per part: a forward and a
                                                            backward kernel of one name never share a file
    OUT/compiles/0-0/provenance.json    which lines of every stage hold the same op (not in a
                                        log's dump: read from its stage files when used)

`DumpWriter` writes stage files as events arrive, so a crash keeps what came before.

Modules, by job: `safe_fs` (names, writing and reading without following a symlink, what `--dump OUT`
may write into), `index` (session.json's content and text), `writer` (`write_dump`, `DumpWriter`),
`loader` (`validate_index`, `load_dump`).
"""
