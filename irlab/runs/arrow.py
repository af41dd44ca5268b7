"""Arrow arrays and numpy arrays, without a detour through pandas.

pyarrow's own ``Array.to_numpy`` and ``pa.array(numpy_array)`` import pandas when it is
installed (0.1 s, as long as trec_eval takes for a whole small run), so the command line moves
primitive columns between the two through their buffers instead: no copy, no import.

>>> as_numpy(as_arrow(np.array([3, 1, 2]))).tolist(), as_numpy(pa.array([True, False, True])).tolist()
([3, 1, 2], [True, False, True])
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa

_NUMPY = {pa.int8(): np.int8, pa.int16(): np.int16, pa.int32(): np.int32, pa.int64(): np.int64,
          pa.uint8(): np.uint8, pa.uint16(): np.uint16, pa.uint32(): np.uint32, pa.uint64(): np.uint64,
          pa.float32(): np.float32, pa.float64(): np.float64}


def as_numpy(array: pa.Array | pa.ChunkedArray) -> np.ndarray:
    """A primitive or boolean Arrow array without nulls as a numpy array (a view where the layout allows)."""
    if isinstance(array, pa.ChunkedArray):
        chunks = [as_numpy(chunk) for chunk in array.chunks]
        if not chunks:
            return as_numpy(pa.array([], array.type))
        return np.concatenate(chunks) if len(chunks) != 1 else chunks[0]
    if array.null_count:
        raise ValueError("as_numpy takes arrays without nulls")
    if pa.types.is_boolean(array.type):
        bits = np.frombuffer(array.buffers()[1], dtype=np.uint8) if len(array) else np.zeros(0, np.uint8)
        return np.unpackbits(bits, bitorder="little")[array.offset:array.offset + len(array)].astype(bool)
    dtype = np.dtype(_NUMPY[array.type])
    if not len(array):
        return np.zeros(0, dtype)
    return np.frombuffer(array.buffers()[1], dtype=dtype)[array.offset:array.offset + len(array)]


def as_arrow(values: np.ndarray) -> pa.Array:
    """A 1-D numpy array of a primitive type as an Arrow array sharing its memory."""
    values = np.ascontiguousarray(values)
    arrow_type = next(t for t, d in _NUMPY.items() if np.dtype(d) == values.dtype)
    return pa.Array.from_buffers(arrow_type, len(values), [None, pa.py_buffer(values)])
