/* kiln.devices(): the CPU, every CUDA GPU and every OpenCL device this build can use. */
#include "common.h"

static PyObject *py_devices(PyObject *self, PyObject *unused)
{
    (void)self;
    (void)unused;
    const int count = kiln_device_total();
    PyObject *list = PyList_New(0);
    if (!list)
        return NULL;
    for (int i = 0; i < count; i++) {
        kiln_device_info info;
        if (kiln_device_get(i, &info) != KILN_OK)
            continue;
        const char *kind = kiln_backend_name(info.backend);
        char name[32];
        PyObject *spec = PyUnicode_FromString(kiln_device_spec(info.backend, info.index, name, sizeof name));
        PyObject *d = Py_BuildValue("{s:N,s:s,s:i,s:s,s:i,s:(ii),s:K,s:s,s:s,s:s}", "device", spec, "kind", kind,
                                    "index", info.index, "name", info.name, "units", info.units,
                                    "compute_capability", info.cc_major, info.cc_minor, "memory_bytes",
                                    (unsigned long long)info.memory_bytes, "features", info.features, "platform",
                                    info.platform, "driver", info.driver);
        if (!d || PyList_Append(list, d) < 0) {
            Py_XDECREF(d);
            Py_DECREF(list);
            return NULL;
        }
        Py_DECREF(d);
    }
    return list;
}

PyMethodDef kiln_py_device_methods[] = {
    {"devices", py_devices, METH_NOARGS,
     "devices()\n--\n\nThe devices kiln can use: a dict each (device spec as `device=` takes it,\n"
     "kind, index, name, units, compute_capability (OpenCL: its version), memory_bytes, features,\n"
     "platform and driver (OpenCL)), the CPU first, then CUDA, then OpenCL."},
    {NULL, NULL, 0, NULL},
};
