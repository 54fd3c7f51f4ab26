/* chartkit._speedups: one pass over a list of plain dicts, in C.
 *
 * The optional compiled half of chartkit.read.columnar (the markupsafe / simplejson pattern):
 * when it is not built, the pure-Python reader and judge in chartkit.read.columnar and
 * chartkit.check do the same work, and tests hold both to the same answers.
 *
 * read_columns(rows, names, absent) reads the rows once, row-major: each row is fetched once
 * and every named key looked up in it. For each column it answers
 *
 *   (values, census, clock, zoned)
 *
 * - values: a new list, the column's value in each row (`absent` where the row lacks the key);
 * - census: a tuple of 2 * N_CLASSES ints, how many values fall in each class below and the
 *   index of the first (-1 when none), so the check can judge a column from its census alone;
 * - clock: when every value is a date string (class ISO_OK: chartkit/_isodate.py's grammar),
 *   the bytes of an int64 array of wall-clock microseconds since 1970-01-01 (aware values
 *   converted to UTC, naive ones as given, as chartkit.encode.as_wall_clock does); otherwise
 *   None;
 * - zoned: how many of those dates carried a zone (Z or an offset); 0 without a clock.
 *
 * Classes are decided by EXACT type only (int, float, str, bool, None, the absent marker);
 * anything else (a subclass, numpy scalars, Decimal, dates, ...) is counted as OTHER and the
 * caller judges that column in Python. The reader never calls back into Python code except
 * through the dict lookup itself (a key's __eq__ may run there); errors propagate.
 *
 * exact_dicts(rows) says whether every row is exactly a dict (the reader's precondition).
 * type_codes(values) codes each item of a list by its exact type (NaN floats apart), for the
 * per-type verdicts of chartkit.check.offending_mask.
 * ascii_text(values) lays a list of ASCII strings out as an Arrow large_string's buffers.
 * same_width(rows, width) says whether every row is exactly a dict of `width` keys.
 * iso_verdict(text) exposes the date validator for tests: (verdict, microseconds, aware).
 */

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

/* --- value classes (keep in step with CENSUS_CLASSES in chartkit/read/columnar.py) ---------- */

enum {
    C_INT,       /* exactly int */
    C_FLOAT,     /* exactly float, not NaN */
    C_NAN,       /* exactly float, NaN */
    C_STR,       /* exactly str (every one, whatever ISO_* says) */
    C_BOOL,      /* exactly bool */
    C_NONE,      /* None */
    C_ABSENT,    /* the row has no such key */
    C_OTHER,     /* any other type: the column is judged in Python */
    C_ISO_OK,    /* a str that is a date string (chartkit/_isodate.py's grammar) */
    C_ISO_BAD,   /* a str that is no date string */
    N_CLASSES
};

/* --- the date grammar, validated and parsed ---------------------------------------------- */

enum { ISO_OK = 0, ISO_BAD = 1 };

/* A str whose characters are all below U+0100 (PyUnicode_1BYTE_KIND): one byte each, so the
 * parser reads them directly. Wider strings are never date strings (see iso_text). */
typedef struct {
    const Py_UCS1 *s;
    Py_ssize_t len;
} Text;

/* The ASCII digit at position i, or -1 (a non-ASCII digit such as U+FF12 is no digit here:
 * the grammar's digits are ASCII). */
static inline int
digit_at(const Text *t, Py_ssize_t i)
{
    if (i >= t->len)
        return -1;
    unsigned d = (unsigned)t->s[i] - '0';
    return d < 10 ? (int)d : -1;
}

/* The character at i; 0 past the end (a NUL inside the text is no character of the grammar
 * either, so the two never need telling apart). */
static inline Py_UCS4
char_at(const Text *t, Py_ssize_t i)
{
    return i < t->len ? t->s[i] : 0;
}

/* n ASCII digits at position i as a number, or -1 when any is not an ASCII digit. */
static int
digits(const Text *t, Py_ssize_t i, int n)
{
    int value = 0;
    for (int k = 0; k < n; k++) {
        int d = digit_at(t, i + k);
        if (d < 0)
            return -1;
        value = value * 10 + d;
    }
    return value;
}

static int
is_leap(int y)
{
    return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

static int
days_in_month(int y, int m)
{
    static const int days[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return (m == 2 && is_leap(y)) ? 29 : days[m - 1];
}

/* Days from 1970-01-01 to y-m-d in the proleptic Gregorian calendar (H. Hinnant's
 * days_from_civil), valid for every year 1..9999. */
static int64_t
days_from_civil(int y, int m, int d)
{
    y -= m <= 2;
    const int64_t era = (y >= 0 ? y : y - 399) / 400;
    const int64_t yoe = y - era * 400;
    const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

/* Whether the text is a date string: the grammar of chartkit/_isodate.py (RFC 3339), written
 * out by hand and held to its regex by tests/test_speedups.py on listed and generated strings:
 *
 *   YYYY-MM-DD
 *   YYYY-MM-DD[T ]HH:MM[:SS[.f+]][Z | +HH:MM | -HH:MM]
 *
 * with the year 1-9999, the month 1-12, the day valid for its month, the hour 0-23, minutes
 * and seconds 0-59 (no leap second), an offset's hours 0-23 and minutes 0-59. ISO_OK sets
 * *micros to the wall clock (aware values in UTC), *aware for a zone, and clears *exact when
 * digits past the microsecond were dropped; anything else is ISO_BAD. */
static int
iso_parse(const Text *t, int64_t *micros, int *aware, int *exact)
{
    *aware = 0;
    *micros = 0;
    *exact = 1;
    if (t->len < 10 || char_at(t, 4) != '-' || char_at(t, 7) != '-')
        return ISO_BAD;
    int y = digits(t, 0, 4), m = digits(t, 5, 2), d = digits(t, 8, 2);
    if (y < 1 || m < 1 || m > 12 || d < 1 || d > days_in_month(y, m))
        return ISO_BAD;
    int64_t seconds = days_from_civil(y, m, d) * 86400;
    int64_t fraction = 0;
    Py_ssize_t i = 10;
    if (i == t->len)
        goto done;
    /* the time: [T ]HH:MM, then optionally :SS, then optionally .f+ */
    Py_UCS4 sep = char_at(t, i);
    if (sep != 'T' && sep != ' ')
        return ISO_BAD;
    int hh = digits(t, i + 1, 2), mm = digits(t, i + 4, 2);
    if (hh < 0 || hh > 23 || char_at(t, i + 3) != ':' || mm < 0 || mm > 59)
        return ISO_BAD;
    seconds += (int64_t)hh * 3600 + mm * 60;
    i += 6;
    if (char_at(t, i) == ':') {
        int ss = digits(t, i + 1, 2);
        if (ss < 0 || ss > 59)
            return ISO_BAD;
        seconds += ss;
        i += 3;
        if (char_at(t, i) == '.') {
            Py_ssize_t n = 0;
            i++;
            while (digit_at(t, i + n) >= 0)
                n++;
            if (n == 0)
                return ISO_BAD;
            /* microseconds: digits past the sixth are dropped, as _isodate.parse_iso does;
             * pandas would keep them (nanoseconds), so such a column gets no wall clock */
            fraction = digits(t, i, n < 6 ? (int)n : 6);
            for (Py_ssize_t k = n; k < 6; k++)
                fraction *= 10;
            if (n > 6)
                *exact = 0;
            i += n;
        }
    }
    if (i == t->len)
        goto done;
    /* the zone: Z, or a sign and HH:MM under 24 hours, and then the end */
    Py_UCS4 z = char_at(t, i);
    if (z == 'Z') {
        if (i + 1 != t->len)
            return ISO_BAD;
        *aware = 1;
        goto done;
    }
    if ((z != '+' && z != '-') || i + 6 != t->len || char_at(t, i + 3) != ':')
        return ISO_BAD;
    int oh = digits(t, i + 1, 2), om = digits(t, i + 4, 2);
    if (oh < 0 || oh > 23 || om < 0 || om > 59)
        return ISO_BAD;
    *aware = 1;
    int64_t offset = (int64_t)oh * 3600 + om * 60;
    seconds -= z == '+' ? offset : -offset; /* local = UTC + offset */
done:
    *micros = seconds * 1000000 + fraction;
    return ISO_OK;
}

/* The verdict on one str (see iso_parse), or -1 with an exception set. */
static int
iso_text(PyObject *text, int64_t *micros, int *aware, int *exact)
{
    *aware = 0;
    *micros = 0;
    *exact = 1;
#if PY_VERSION_HEX < 0x030C0000
    if (PyUnicode_READY(text) < 0) /* a legacy string built by an old C API: make it compact */
        return -1;
#endif
    if (PyUnicode_KIND(text) != PyUnicode_1BYTE_KIND)
        return ISO_BAD; /* some character is past U+00FF: the grammar is ASCII */
    Text t = {PyUnicode_1BYTE_DATA(text), PyUnicode_GET_LENGTH(text)};
    return iso_parse(&t, micros, aware, exact);
}

/* --- the reader --------------------------------------------------------------------------- */

typedef struct {
    PyObject *key;    /* borrowed from names */
    PyObject *values; /* new list of n items, untracked by the GC until it is complete */
    Py_ssize_t count[N_CLASSES];
    Py_ssize_t first[N_CLASSES];
    PyObject *clock; /* bytes of n int64 while every value so far is ISO_OK, else NULL */
    int clock_lost;  /* some date had digits past the microsecond: no wall clock */
    Py_ssize_t zoned; /* how many of the clock's dates carried a zone (Z or an offset) */
} Column;

static inline void
tally(Column *c, int cls, Py_ssize_t i)
{
    if (c->count[cls]++ == 0)
        c->first[cls] = i;
}

/* Count one value into its column's census (and wall clock). -1 with an exception set when
 * the wall clock cannot be allocated or a str cannot be read. */
static int
take(Column *c, PyObject *v, PyObject *absent, Py_ssize_t i, Py_ssize_t n)
{
    PyTypeObject *tp = Py_TYPE(v);
    int cls;
    if (tp == &PyLong_Type)
        cls = C_INT;
    else if (tp == &PyUnicode_Type) {
        tally(c, C_STR, i);
        int64_t micros;
        int aware, exact;
        int verdict = iso_text(v, &micros, &aware, &exact);
        if (verdict < 0)
            return -1;
        if (verdict == ISO_OK) {
            cls = C_ISO_OK;
            if (!exact)
                c->clock_lost = 1; /* a date is accepted, but pandas would read it finer */
            if (i == 0 && !c->clock_lost &&
                n <= PY_SSIZE_T_MAX / (Py_ssize_t)sizeof(int64_t)) {
                /* a first date: the column may be all dates, keep a wall clock */
                c->clock = PyBytes_FromStringAndSize(NULL, n * (Py_ssize_t)sizeof(int64_t));
                if (c->clock == NULL)
                    return -1;
            }
            if (c->clock != NULL) {
                ((int64_t *)PyBytes_AS_STRING(c->clock))[i] = micros;
                c->zoned += aware;
            }
        }
        else
            cls = C_ISO_BAD;
    }
    else if (tp == &PyFloat_Type)
        cls = isnan(PyFloat_AS_DOUBLE(v)) ? C_NAN : C_FLOAT;
    else if (tp == &PyBool_Type)
        cls = C_BOOL;
    else if (v == Py_None)
        cls = C_NONE;
    else if (v == absent)
        cls = C_ABSENT;
    else
        cls = C_OTHER;
    tally(c, cls, i);
    if ((cls != C_ISO_OK || c->clock_lost) && c->clock != NULL) {
        Py_CLEAR(c->clock); /* not every value is a date read here: no wall clock */
        c->zoned = 0;
    }
    return 0;
}

static void
free_columns(Column *cols, Py_ssize_t width)
{
    for (Py_ssize_t k = 0; k < width; k++) {
        Py_XDECREF(cols[k].values); /* list_dealloc tolerates the slots not yet filled */
        Py_XDECREF(cols[k].clock);
    }
    PyMem_Free(cols);
}

/* The answer for one column: (values, census, clock or None, zoned). */
static PyObject *
column_answer(Column *c)
{
    PyObject *census = PyTuple_New(2 * N_CLASSES);
    if (census == NULL)
        return NULL;
    for (int k = 0; k < N_CLASSES; k++) {
        PyObject *n = PyLong_FromSsize_t(c->count[k]);
        PyObject *at = PyLong_FromSsize_t(c->first[k]);
        if (n == NULL || at == NULL) {
            Py_XDECREF(n);
            Py_XDECREF(at);
            Py_DECREF(census);
            return NULL;
        }
        PyTuple_SET_ITEM(census, k, n);
        PyTuple_SET_ITEM(census, N_CLASSES + k, at);
    }
    PyObject *clock = c->clock != NULL ? c->clock : Py_None;
    return Py_BuildValue("(ONOn)", c->values, census, clock, c->zoned);
}

static PyObject *
read_columns(PyObject *module, PyObject *args)
{
    (void)module;
    PyObject *rows_arg, *names_arg, *absent;
    if (!PyArg_ParseTuple(args, "OOO:read_columns", &rows_arg, &names_arg, &absent))
        return NULL;
    PyObject *rows = PySequence_Fast(rows_arg, "rows must be a list or tuple of dicts");
    if (rows == NULL)
        return NULL;
    PyObject *names = PySequence_Tuple(names_arg);
    if (names == NULL) {
        Py_DECREF(rows);
        return NULL;
    }
    const Py_ssize_t n = PySequence_Fast_GET_SIZE(rows);
    const Py_ssize_t width = PyTuple_GET_SIZE(names);
    PyObject *out = NULL;
    Column *cols = PyMem_Calloc(width ? width : 1, sizeof(Column));
    if (cols == NULL) {
        PyErr_NoMemory();
        goto finally;
    }
    for (Py_ssize_t k = 0; k < width; k++) {
        Column *c = &cols[k];
        c->key = PyTuple_GET_ITEM(names, k);
        for (int j = 0; j < N_CLASSES; j++)
            c->first[j] = -1;
        c->values = PyList_New(n);
        if (c->values == NULL)
            goto fail;
        /* Until every slot is filled the list must not be seen: a key's __eq__ runs Python
         * code in the middle of the reading, and the GC would hand it the list. */
        PyObject_GC_UnTrack(c->values);
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        /* a key's __eq__ may have shortened the list: never read past its end */
        if (i >= PySequence_Fast_GET_SIZE(rows)) {
            PyErr_SetString(PyExc_RuntimeError, "the rows changed size while being read");
            goto fail;
        }
        PyObject *row = PySequence_Fast_GET_ITEM(rows, i);
        if (!PyDict_CheckExact(row)) {
            PyErr_Format(PyExc_TypeError, "row %zd is a %.200s, not a dict", i,
                         Py_TYPE(row)->tp_name);
            goto fail;
        }
        Py_INCREF(row); /* held while its keys are looked up: __eq__ may drop it from rows */
        for (Py_ssize_t k = 0; k < width; k++) {
            Column *c = &cols[k];
            PyObject *v = PyDict_GetItemWithError(row, c->key); /* borrowed */
            if (v == NULL) {
                if (PyErr_Occurred()) {
                    Py_DECREF(row);
                    goto fail;
                }
                v = absent;
            }
            Py_INCREF(v); /* ours before the next lookup can run code that frees it */
            PyList_SET_ITEM(c->values, i, v);
            if (take(c, v, absent, i, n) < 0) {
                Py_DECREF(row);
                goto fail;
            }
        }
        Py_DECREF(row);
    }
    out = PyList_New(width);
    if (out == NULL)
        goto fail;
    for (Py_ssize_t k = 0; k < width; k++) {
        Column *c = &cols[k];
        PyObject_GC_Track(c->values); /* complete: every slot holds a value */
        PyObject *answer = column_answer(c);
        if (answer == NULL)
            goto fail;
        PyList_SET_ITEM(out, k, answer);
    }
    free_columns(cols, width);
    goto finally;
fail:
    Py_CLEAR(out);
    if (cols != NULL)
        free_columns(cols, width);
finally:
    Py_DECREF(rows);
    Py_DECREF(names);
    return out;
}

/* exact_dicts(rows) -> whether every item of a list or tuple is exactly a dict: the `plain`
 * flag of a reading, without listing every row's type in Python. */
static PyObject *
exact_dicts(PyObject *module, PyObject *rows)
{
    (void)module;
    if (!PyList_Check(rows) && !PyTuple_Check(rows)) {
        PyErr_Format(PyExc_TypeError, "exact_dicts takes a list or tuple, not %.200s",
                     Py_TYPE(rows)->tp_name);
        return NULL;
    }
    /* nothing here runs Python code, so the sequence cannot change under the loop */
    Py_ssize_t n = PySequence_Fast_GET_SIZE(rows);
    PyObject **items = PySequence_Fast_ITEMS(rows);
    for (Py_ssize_t i = 0; i < n; i++) {
        if (!PyDict_CheckExact(items[i]))
            Py_RETURN_FALSE;
    }
    Py_RETURN_TRUE;
}

/* type_codes(values) -> (codes, types), or None past MAX_TYPES distinct types.
 *
 * codes: bytes, one per item of the list, the index in `types` (the distinct exact types, first
 * seen first) of the item's type; except that an exact float holding NaN is coded NAN_CODE,
 * so the caller needs no second look at floats. The per-type verdicts of chartkit.check's
 * offending_mask, without a Python call per value. Nothing here runs Python code. */
#define NAN_CODE 255
#define MAX_TYPES 255

static PyObject *
type_codes(PyObject *module, PyObject *values)
{
    (void)module;
    if (!PyList_Check(values)) {
        PyErr_Format(PyExc_TypeError, "type_codes takes a list, not %.200s",
                     Py_TYPE(values)->tp_name);
        return NULL;
    }
    Py_ssize_t n = PyList_GET_SIZE(values);
    PyObject *codes = PyBytes_FromStringAndSize(NULL, n);
    if (codes == NULL)
        return NULL;
    unsigned char *out = (unsigned char *)PyBytes_AS_STRING(codes);
    PyObject **items = PySequence_Fast_ITEMS(values);
    PyTypeObject *seen[MAX_TYPES];
    int k = 0, last = -1;
    PyTypeObject *last_type = NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyTypeObject *tp = Py_TYPE(items[i]);
        if (tp == &PyFloat_Type && isnan(PyFloat_AS_DOUBLE(items[i]))) {
            out[i] = NAN_CODE;
            continue;
        }
        if (tp != last_type) {
            int j = 0;
            while (j < k && seen[j] != tp)
                j++;
            if (j == k) {
                if (k == MAX_TYPES) {
                    Py_DECREF(codes);
                    Py_RETURN_NONE;
                }
                seen[k++] = tp;
            }
            last = j;
            last_type = tp;
        }
        out[i] = (unsigned char)last;
    }
    PyObject *types = PyTuple_New(k);
    if (types == NULL) {
        Py_DECREF(codes);
        return NULL;
    }
    for (int j = 0; j < k; j++) {
        Py_INCREF(seen[j]);
        PyTuple_SET_ITEM(types, j, (PyObject *)seen[j]);
    }
    return Py_BuildValue("(NN)", codes, types);
}

/* ascii_text(values) -> (offsets, data), or None when an item is not an exact str of ASCII
 * characters only.
 *
 * The two buffers of an Arrow large_string array holding the list's strings: n + 1 int64
 * offsets and the characters, each sized exactly (one pass to measure, one to copy), where
 * pyarrow's builder grows its buffer by doubling and leaves the outgrown ones resident in its
 * pool. ASCII only: its characters are its UTF-8, with no encoding to do or cache. */
static PyObject *
ascii_text(PyObject *module, PyObject *values)
{
    (void)module;
    if (!PyList_Check(values)) {
        PyErr_Format(PyExc_TypeError, "ascii_text takes a list, not %.200s",
                     Py_TYPE(values)->tp_name);
        return NULL;
    }
    /* nothing here runs Python code, so the list cannot change between the passes */
    Py_ssize_t n = PyList_GET_SIZE(values);
    PyObject **items = PySequence_Fast_ITEMS(values);
    Py_ssize_t total = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *v = items[i];
        if (!PyUnicode_CheckExact(v))
            Py_RETURN_NONE;
        if (PyUnicode_READY(v) < 0)
            return NULL;
        if (!PyUnicode_IS_ASCII(v))
            Py_RETURN_NONE;
        total += PyUnicode_GET_LENGTH(v);
    }
    PyObject *offsets = PyBytes_FromStringAndSize(NULL, (n + 1) * (Py_ssize_t)sizeof(int64_t));
    if (offsets == NULL)
        return NULL;
    PyObject *data = PyBytes_FromStringAndSize(NULL, total);
    if (data == NULL) {
        Py_DECREF(offsets);
        return NULL;
    }
    int64_t *off = (int64_t *)PyBytes_AS_STRING(offsets);
    char *chars = PyBytes_AS_STRING(data);
    int64_t at = 0;
    off[0] = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        Py_ssize_t len = PyUnicode_GET_LENGTH(items[i]);
        memcpy(chars + at, PyUnicode_1BYTE_DATA(items[i]), (size_t)len);
        at += len;
        off[i + 1] = at;
    }
    return Py_BuildValue("(NN)", offsets, data);
}

/* same_width(rows, width) -> whether every item of a list or tuple is exactly a dict holding
 * `width` keys: the shape check of RowsetReading.columns, without a len() call per row. */
static PyObject *
same_width(PyObject *module, PyObject *args)
{
    (void)module;
    PyObject *rows;
    Py_ssize_t width;
    if (!PyArg_ParseTuple(args, "On:same_width", &rows, &width))
        return NULL;
    if (!PyList_Check(rows) && !PyTuple_Check(rows)) {
        PyErr_Format(PyExc_TypeError, "same_width takes a list or tuple, not %.200s",
                     Py_TYPE(rows)->tp_name);
        return NULL;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(rows);
    PyObject **items = PySequence_Fast_ITEMS(rows);
    for (Py_ssize_t i = 0; i < n; i++) {
        if (!PyDict_CheckExact(items[i]) || PyDict_GET_SIZE(items[i]) != width)
            Py_RETURN_FALSE;
    }
    Py_RETURN_TRUE;
}

static PyObject *
iso_verdict(PyObject *module, PyObject *text)
{
    (void)module;
    if (!PyUnicode_Check(text)) {
        PyErr_Format(PyExc_TypeError, "iso_verdict takes a str, not %.200s",
                     Py_TYPE(text)->tp_name);
        return NULL;
    }
    int64_t micros;
    int aware, exact;
    int verdict = iso_text(text, &micros, &aware, &exact);
    if (verdict < 0)
        return NULL;
    return Py_BuildValue("(iLO)", verdict, (long long)micros, aware ? Py_True : Py_False);
}

static PyMethodDef methods[] = {
    {"read_columns", read_columns, METH_VARARGS,
     "read_columns(rows, names, absent) -> [(values, census, clock, aware)] per name"},
    {"exact_dicts", exact_dicts, METH_O,
     "exact_dicts(rows) -> True when every item of the list or tuple is exactly a dict"},
    {"type_codes", type_codes, METH_O,
     "type_codes(values) -> (bytes of each item's type index, NaN floats 255; distinct types)"},
    {"ascii_text", ascii_text, METH_O,
     "ascii_text(values) -> (int64 offsets, characters) of an Arrow large_string, or None"},
    {"same_width", same_width, METH_VARARGS,
     "same_width(rows, width) -> True when every item is exactly a dict of `width` keys"},
    {"iso_verdict", iso_verdict, METH_O,
     "iso_verdict(text) -> (0 a date string | 1 not one, wall-clock micros, aware)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT,
    "chartkit._speedups",
    "One pass over a list of plain dicts in C: columns, their census, date strings parsed once.",
    -1,
    methods,
    NULL,
    NULL,
    NULL,
    NULL,
};

PyMODINIT_FUNC
PyInit__speedups(void)
{
    PyObject *m = PyModule_Create(&module_def);
    if (m == NULL)
        return NULL;
    PyObject *all = Py_BuildValue("[sssssss]", "N_CLASSES", "ascii_text", "exact_dicts",
                                  "iso_verdict", "read_columns", "same_width", "type_codes");
    if (all == NULL || PyModule_AddObject(m, "__all__", all) < 0) {
        Py_XDECREF(all);
        Py_DECREF(m);
        return NULL;
    }
    if (PyModule_AddIntConstant(m, "N_CLASSES", N_CLASSES) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
