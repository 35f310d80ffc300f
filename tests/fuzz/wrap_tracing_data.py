#!/usr/bin/env python3
"""Wraps a raw TRACING_DATA blob (what the tracing-data harness takes) in
the smallest file-mode perf.data that carries it: one tracepoint attr, a
data section of one FINISHED_ROUND record, and the blob as the
HEADER_TRACING_DATA feature section, so `perfdb import` of the result
hands the blob to the tracing-data parser as a real recording would.
Usage: wrap_tracing_data.py BLOB OUT.data"""
import struct
import sys

def wrap(blob):
    attr_size = 64 + 16                 # PERF_ATTR_SIZE_VER0 + ids {offset, size}
    attrs_off = 104
    data_off = attrs_off + attr_size
    data = struct.pack('<IHH', 68, 0, 8)    # PERF_RECORD_FINISHED_ROUND
    feat_off = data_off + len(data)
    blob_off = feat_off + 16
    header = b'PERFILE2' + struct.pack('<Q', 104)
    header += struct.pack('<QQQ', attr_size, attrs_off, attr_size)
    header += struct.pack('<QQ', data_off, len(data))
    header += struct.pack('<QQ', 0, 0)      # event_types
    header += struct.pack('<QQQQ', 1 << 1, 0, 0, 0)  # HEADER_TRACING_DATA
    # type TRACEPOINT, size 64, config 1, period 1, sample_type IP|TID|TIME|CPU|RAW|PERIOD
    sample_type = 1 | 2 | 4 | 0x80 | 0x100 | 0x400
    attr = struct.pack('<IIQQQQQ', 2, 64, 1, 1, sample_type, 0, 1 << 18)
    attr += bytes(64 - len(attr))
    attr += struct.pack('<QQ', 0, 0)
    return header + attr + data + struct.pack('<QQ', blob_off, len(blob)) + blob

if __name__ == '__main__':
    with open(sys.argv[1], 'rb') as f:
        blob = f.read()
    with open(sys.argv[2], 'wb') as f:
        f.write(wrap(blob))
