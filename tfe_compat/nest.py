"""`tf.nest`: flatten, rebuild and compare nested structures, with TF's rules and errors.

Nested ("sequences"): lists, tuples, namedtuples, dicts and other Mappings (values in sorted
key order, rebuilt with their own type and key order), mapping views, attrs classes and other
`collections.abc.Sequence`s except strings. Everything else (None, strings, Tensors,
Variables, NumPy arrays, sets) is an atom. A SparseTensor is an atom unless
`expand_composites=True`, which turns it into its [indices, values, dense_shape].
"""
# Imports under private names keep `dir(tf.nest)` to TF's five names. tf.data's nest
# (data/structure.py, where lists are atoms) reuses _flatten, _pack and _sequence_like.
import collections as _collections
from collections import abc as _abc

import jax as _jax

from tfe_compat.framework.api import export as _export
from tfe_compat.framework.tensor import Tensor as _Tensor
from tfe_compat.ops.string_ops import SparseTensor as _SparseTensor

_NESTED_TYPES = (list, tuple, dict)


def _is_attrs(value):
  return hasattr(type(value), "__attrs_attrs__")


def _is_namedtuple(value):
  fields = getattr(value, "_fields", None) if isinstance(value, tuple) else None
  return (isinstance(fields, _abc.Sequence) and
          all(isinstance(f, (str, bytes)) for f in fields))


@_export("nest.is_nested", "contrib.framework.nest.is_nested",
         "contrib.framework.nest.is_sequence")
def is_nested(seq):
  """True for the structures nest descends into (see the module docstring)."""
  if type(seq) in _NESTED_TYPES:
    return True
  if isinstance(seq, (_abc.Mapping, _abc.MappingView)) or _is_attrs(seq):
    return True
  return isinstance(seq, _abc.Sequence) and not isinstance(seq, (str, bytes))


def _is_nested_or_composite(value):
  return isinstance(value, _SparseTensor) or is_nested(value)


def _nested_fn(expand_composites):
  return _is_nested_or_composite if expand_composites else is_nested


def _sorted_keys(mapping):
  try:
    return sorted(mapping)
  except TypeError:
    raise TypeError("nest only supports dicts with sortable keys.") from None


def _children(value, sort_keys=sorted):
  """The items of a nested `value` in nest order (a SparseTensor: its component list)."""
  if isinstance(value, (list, tuple)):
    return value
  if isinstance(value, _abc.Mapping):
    return [value[key] for key in sort_keys(value)]
  if _is_attrs(value):
    return [getattr(value, a.name) for a in type(value).__attrs_attrs__]
  if isinstance(value, _SparseTensor):
    return [[value.indices, value.values, value.dense_shape]]
  return list(value)


def _rebuild_sparse(instance, components):
  """A SparseTensor from components; its dense shape must stay that of `instance`."""
  out = _SparseTensor(*components)
  if not any(isinstance(t.dense_shape._value, _jax.core.Tracer) for t in (instance, out)):
    if out.shape.as_list() != instance.shape.as_list():
      raise ValueError("Shapes %s and %s are not compatible" % (out.shape, instance.shape))
  return out


def _sequence_like(instance, args):
  """`args` as a structure of the same type as `instance`."""
  if isinstance(instance, _abc.Mapping):
    by_key = dict(zip(_sorted_keys(instance), args))
    kind = type(instance)
    if isinstance(instance, _abc.MutableMapping):
      out = (_collections.defaultdict(instance.default_factory)
             if kind is _collections.defaultdict else kind())
      for key in instance:
        out[key] = by_key[key]
      return out
    try:
      return kind((key, by_key[key]) for key in instance)
    except TypeError as e:
      raise TypeError(
          "Error creating an object of type {} like {}. Note that it must accept a single "
          "positional argument representing an iterable of key-value pairs, in addition to "
          "self. Cause: {}".format(kind, instance, e)) from None
  if isinstance(instance, (_abc.MappingView, range)):
    return list(args)
  if _is_namedtuple(instance) or _is_attrs(instance):
    return type(instance)(*args)
  if isinstance(instance, _SparseTensor):
    return _rebuild_sparse(instance, args[0])
  return type(instance)(args)


def _flatten(structure, is_nested_fn, out):
  if not is_nested_fn(structure):
    out.append(structure)
    return out
  for item in _children(structure):
    _flatten(item, is_nested_fn, out)
  return out


@_export("nest.flatten", "contrib.framework.nest.flatten")
def flatten(structure, expand_composites=False):
  """The atoms of `structure` as a flat list (dict values in sorted key order)."""
  return _flatten(structure, _nested_fn(expand_composites), [])


# ---- assert_same_structure ----
def _type_name(value):
  """The class name TF's messages use (`EagerTensor` for an eager Tensor)."""
  return "EagerTensor" if type(value) is _Tensor else type(value).__name__


def _describe(value):
  return "type=%s str=%s" % (_type_name(value), value)


def _tp_name(kind):
  """CPython's tp_name: `collections.OrderedDict` for built-in types, `NT` for classes."""
  if kind.__flags__ & (1 << 9) or kind.__module__ == "builtins":  # Py_TPFLAGS_HEAPTYPE
    return kind.__name__
  return "%s.%s" % (kind.__module__, kind.__name__)


def _type_mismatch(o1, o2):
  if _is_namedtuple(o1) and _is_namedtuple(o2):
    return o1._fields != o2._fields or type(o1).__name__ != type(o2).__name__
  return (type(o1) is not type(o2) and
          not (isinstance(o1, list) and isinstance(o2, list)) and
          not (isinstance(o1, _abc.Mapping) and isinstance(o2, _abc.Mapping)))


def _keys_error(o1, o2):
  return ("The two dictionaries don't have the same set of keys. First structure has keys "
          "%s, while second structure has keys %s"
          % (_describe(list(o1.keys())), _describe(list(o2.keys()))))


def _sparse_spec_text(sparse):
  return "type=SparseTensorSpec str=SparseTensorSpec(TensorShape(%s), tf.%s)" % (
      list(sparse.shape.as_list()), sparse.dtype.name)


def _mismatch(o1, o2, check_types, is_nested_fn):
  """(message, is_type_error) for the first difference between o1 and o2, or None."""
  nested1, nested2 = is_nested_fn(o1), is_nested_fn(o2)
  if nested1 != nested2:
    seq, atom = (o1, o2) if nested1 else (o2, o1)
    return ('Substructure "%s" is a sequence, while substructure "%s" is not'
            % (_describe(seq), _describe(atom)), False)
  if not nested1:
    return None
  if check_types:
    if _type_mismatch(o1, o2):
      return ("The two namedtuples don't have the same sequence type. First structure %s "
              "has type %s, while second structure %s has type %s"
              % (_describe(o1), _tp_name(type(o1)), _describe(o2), _tp_name(type(o2))), True)
    if isinstance(o1, _abc.Mapping) and (len(o1) != len(o2) or any(k not in o2 for k in o1)):
      return _keys_error(o1, o2), False
  if isinstance(o1, _SparseTensor) and isinstance(o2, _SparseTensor) and o1.dtype != o2.dtype:
    return ("Incompatible CompositeTensor TypeSpecs: %s vs. %s"
            % (_sparse_spec_text(o1), _sparse_spec_text(o2)), False)
  items1, items2 = _children(o1), _children(o2)
  for v1, v2 in zip(items1, items2):
    found = _mismatch(v1, v2, check_types, is_nested_fn)
    if found:
      return found
  if len(items1) != len(items2):
    return ("The two structures don't have the same number of elements. First structure: "
            "%s. Second structure: %s" % (_describe(o1), _describe(o2)), False)
  return None


class _Dot:
  __slots__ = ()

  def __repr__(self):
    return "."

  __str__ = __repr__


@_export("nest.assert_same_structure", "contrib.framework.nest.assert_same_structure")
def assert_same_structure(nest1, nest2, check_types=True, expand_composites=False):
  """Raises ValueError (or TypeError for differing sequence types) unless the two nests
  have the same structure."""
  found = _mismatch(nest1, nest2, bool(check_types), _nested_fn(expand_composites))
  if found is None:
    return
  message, is_type_error = found
  dots1 = map_structure(lambda _: _Dot(), nest1)
  dots2 = map_structure(lambda _: _Dot(), nest2)
  raise (TypeError if is_type_error else ValueError)(
      "The two structures don't have the same nested structure.\n\nFirst structure: %s\n\n"
      "Second structure: %s\n\nMore specifically: %s\nEntire first structure:\n%s\n"
      "Entire second structure:\n%s"
      % (_describe(nest1), _describe(nest2), message, dots1, dots2))


# ---- pack_sequence_as / map_structure ----
def _truncate(value, length=100):
  text = str(value)
  return text[:length] + (text[length:] and "...")


def _pack(structure, flat, index, is_nested_fn):
  """(next index into `flat`, the items of `structure` rebuilt from `flat[index:]`)."""
  packed = []
  for item in _children(structure, _sorted_keys):
    if is_nested_fn(item):
      index, child = _pack(item, flat, index, is_nested_fn)
      packed.append(_sequence_like(item, child))
    else:
      packed.append(flat[index])
      index += 1
  return index, packed


@_export("nest.pack_sequence_as", "contrib.framework.nest.pack_sequence_as")
def pack_sequence_as(structure, flat_sequence, expand_composites=False):
  """`structure` rebuilt with the atoms of the flat sequence `flat_sequence`, in order."""
  is_nested_fn = _nested_fn(expand_composites)
  if not is_nested_fn(flat_sequence):
    raise TypeError("Attempted to pack value:\n  {}\ninto a structure, but found incompatible "
                    "type `{}` instead.".format(_truncate(flat_sequence), type(flat_sequence)))
  if not is_nested_fn(structure):
    if len(flat_sequence) != 1:
      raise ValueError(
          "The target structure is of type `{}`\n  {}\nHowever the input is a sequence ({}) "
          "of length {}.\n  {}\nnest cannot guarantee that it is safe to map one to the "
          "other.".format(type(structure), _truncate(structure), type(flat_sequence),
                          len(flat_sequence), _truncate(flat_sequence)))
    return flat_sequence[0]
  try:
    index, packed = _pack(structure, flat_sequence, 0, is_nested_fn)
    if index < len(flat_sequence):
      raise IndexError
  except IndexError:
    atoms = len(flatten(structure, expand_composites))
    raise ValueError(
        "Could not pack sequence. Structure had %d atoms, but flat_sequence had %d items.  "
        "Structure: %s, flat_sequence: %s."
        % (atoms, len(flat_sequence), structure, flat_sequence)) from None
  return _sequence_like(structure, packed)


@_export("nest.map_structure", "contrib.framework.nest.map_structure")
def map_structure(func, *structure, **kwargs):
  """Applies `func` to the atoms at the same place in each structure (which must match;
  keyword arguments: `check_types=True`, `expand_composites=False`)."""
  if not callable(func):
    raise TypeError("func must be callable, got: %s" % func)
  if not structure:
    raise ValueError("Must provide at least one structure")
  check_types = kwargs.pop("check_types", True)
  expand_composites = kwargs.pop("expand_composites", False)
  if kwargs:
    raise ValueError("Only valid keyword arguments are `check_types` and `expand_composites`, "
                     "not: `%s`" % "`, `".join(kwargs.keys()))
  for other in structure[1:]:
    assert_same_structure(structure[0], other, check_types=check_types,
                          expand_composites=expand_composites)
  flats = [flatten(s, expand_composites) for s in structure]
  return pack_sequence_as(structure[0], [func(*atoms) for atoms in zip(*flats)],
                          expand_composites=expand_composites)
