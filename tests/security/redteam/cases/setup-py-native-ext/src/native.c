#define PY_SSIZE_T_CLEAN
#include <Python.h>

static PyObject *split_line(PyObject *self, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"line", "sep", NULL};
    const char *s; Py_ssize_t n; int sep = ',';
    const char *sepstr = NULL;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "s#|s", kwlist, &s, &n, &sepstr)) return NULL;
    if (sepstr && sepstr[0]) sep = sepstr[0];
    PyObject *out = PyList_New(0);
    if (!out) return NULL;
    char *buf = PyMem_Malloc(n + 1);
    if (!buf) { Py_DECREF(out); return PyErr_NoMemory(); }
    Py_ssize_t b = 0; int q = 0;
    for (Py_ssize_t i = 0; i <= n; i++) {
        char c = i < n ? s[i] : '\0';
        if (i == n || (!q && c == sep)) {
            PyObject *f = PyUnicode_DecodeUTF8(buf, b, "replace");
            if (!f || PyList_Append(out, f) < 0) { Py_XDECREF(f); Py_DECREF(out); PyMem_Free(buf); return NULL; }
            Py_DECREF(f); b = 0; continue;
        }
        if (c == '"') {
            if (q && i + 1 < n && s[i + 1] == '"') { buf[b++] = '"'; i++; }
            else q = !q;
            continue;
        }
        buf[b++] = c;
    }
    PyMem_Free(buf);
    return out;
}

static PyMethodDef methods[] = {
    {"split_line", (PyCFunction)(void (*)(void))split_line, METH_VARARGS | METH_KEYWORDS, "Split one CSV line."},
    {NULL, NULL, 0, NULL}
};

static struct PyModuleDef mod = {PyModuleDef_HEAD_INIT, "_native", NULL, -1, methods};

PyMODINIT_FUNC PyInit__native(void) { return PyModule_Create(&mod); }
