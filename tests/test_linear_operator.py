"""Tests for tf.linalg.LinearOperator and its subclasses (golden values from TF)."""
import numpy as np
import pytest

import tfe_compat as tf

L = tf.linalg

# Golden values recorded from TensorFlow with the same `make`/`record` below.
GOLDEN = {'adj': {'H': [[1.0, 2.0], [3.0, 4.0]],
         'add': [[2.0, 4.0], [3.0, 5.0]],
         'batch': [],
         'dense': [[1.0, 3.0], [2.0, 4.0]],
         'det': -2.0,
         'diag': [1.0, 4.0],
         'dtype': 'float32',
         'hints': [None, None, None, True],
         'inv': [[-2.0, 1.5], [1.0, -0.5]],
         'lad': 0.6931471824645996,
         'matmul': [[10.0, 14.0], [14.0, 20.0]],
         'matmul_adj': [[7.0, 10.0], [15.0, 22.0]],
         'matvec': [10.0, 14.0],
         'name': 'LinearOperatorFullMatrix_adjoint',
         'rank': 2,
         'shape': [2, 2],
         'shape_t': [2, 2],
         'solve': [[2.5, 2.0], [-0.5, 0.0]],
         'solve_adj': [[1.0, 0.0], [0.0, 1.0]],
         'solvevec': [2.0, 0.0],
         'trace': 5.0},
 'bd': {'H': [[2.0, 1.0, 0.0, 0.0, 0.0], [1.0, 3.0, 0.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0, 0.0],
              [0.0, 0.0, 0.0, 2.0, 0.0], [0.0, 0.0, 0.0, 0.0, 3.0]],
        'add': [[3.0, 2.0, 1.0, 1.0, 1.0], [2.0, 4.0, 1.0, 1.0, 1.0], [1.0, 1.0, 2.0, 1.0, 1.0],
                [1.0, 1.0, 1.0, 3.0, 1.0], [1.0, 1.0, 1.0, 1.0, 4.0]],
        'batch': [],
        'dense': [[2.0, 1.0, 0.0, 0.0, 0.0], [1.0, 3.0, 0.0, 0.0, 0.0], [0.0, 0.0, 1.0, 0.0, 0.0],
                  [0.0, 0.0, 0.0, 2.0, 0.0], [0.0, 0.0, 0.0, 0.0, 3.0]],
        'det': 30.0,
        'diag': [2.0, 3.0, 1.0, 2.0, 3.0],
        'dtype': 'float32',
        'hints': [None, None, None, True],
        'inv': [[0.6000000238418579, -0.20000000298023224, 0.0, 0.0, 0.0],
                [-0.20000000298023224, 0.4000000059604645, 0.0, 0.0, 0.0],
                [0.0, 0.0, 1.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.5, 0.0],
                [0.0, 0.0, 0.0, 0.0, 0.3333333432674408]],
        'lad': 3.4011974334716797,
        'matmul': [[5.0, 8.0], [10.0, 14.0], [5.0, 6.0], [14.0, 16.0], [27.0, 30.0]],
        'matmul_adj': [[5.0, 8.0], [10.0, 14.0], [5.0, 6.0], [14.0, 16.0], [27.0, 30.0]],
        'matvec': [5.0, 10.0, 5.0, 14.0, 27.0],
        'name': 'LinearOperatorFullMatrix_ds_LinearOperatorDiag',
        'rank': 2,
        'shape': [5, 5],
        'shape_t': [5, 5],
        'solve': [[0.0, 0.3999999761581421], [1.0, 1.2000000476837158], [5.0, 6.0], [3.5, 4.0],
                  [3.0, 3.3333334922790527]],
        'solve_adj': [[0.0, 0.3999999761581421], [1.0, 1.2000000476837158], [5.0, 6.0], [3.5, 4.0],
                      [3.0, 3.3333334922790527]],
        'solvevec': [0.3999999761581421, 1.2000000476837158, 6.0, 4.0, 3.3333334922790527],
        'trace': 11.0},
 'circ': {'H': [[1.3333333730697632, 2.3333334922790527, 2.3333334922790527],
                [2.3333334922790527, 1.3333333730697632, 2.3333334922790527],
                [2.3333334922790527, 2.3333334922790527, 1.3333333730697632]],
          'add': [[2.3333334922790527, 3.3333334922790527, 3.3333334922790527],
                  [3.3333334922790527, 2.3333334922790527, 3.3333334922790527],
                  [3.3333334922790527, 3.3333334922790527, 2.3333334922790527]],
          'batch': [],
          'dense': [[1.3333333730697632, 2.3333334922790527, 2.3333334922790527],
                    [2.3333334922790527, 1.3333333730697632, 2.3333334922790527],
                    [2.3333334922790527, 2.3333334922790527, 1.3333333730697632]],
          'det': 6.0,
          'diag': [1.3333333730697632, 1.3333333730697632, 1.3333333730697632],
          'dtype': 'float32',
          'hints': [None, True, None, True],
          'inv': [[-0.6111111640930176, 0.3888888955116272, 0.3888888955116272],
                  [0.3888888955116272, -0.6111111044883728, 0.3888889253139496],
                  [0.3888888955116272, 0.3888889253139496, -0.6111111044883728]],
          'lad': 1.7917594909667969,
          'matmul': [[20.0, 26.0], [18.0, 24.0], [16.0, 22.0]],
          'matmul_adj': [[20.0, 26.0], [18.0, 24.0], [16.0, 22.0]],
          'matvec': [20.0, 18.0, 16.0],
          'name': 'LinearOperatorCirculant',
          'rank': 2,
          'shape': [3, 3],
          'shape_t': [3, 3],
          'solve': [[2.5, 2.6666667461395264], [0.5, 0.6666666865348816],
                    [-1.5, -1.3333333730697632]],
          'solve_adj': [[2.5, 2.6666667461395264], [0.5, 0.6666666865348816],
                        [-1.5, -1.3333333730697632]],
          'solvevec': [2.6666667461395264, 0.6666666865348816, -1.3333333730697632],
          'trace': 4.0},
 'comp': {'H': [[2.0, 1.0], [2.0, 6.0]],
          'add': [[3.0, 3.0], [2.0, 7.0]],
          'batch': [],
          'dense': [[2.0, 2.0], [1.0, 6.0]],
          'det': 10.0,
          'diag': [2.0, 6.0],
          'dtype': 'float32',
          'hints': [None, None, None, True],
          'inv': [[0.6000000238418579, -0.20000000298023224],
                  [-0.10000000149011612, 0.20000000298023224]],
          'lad': 2.3025851249694824,
          'matmul': [[8.0, 12.0], [19.0, 26.0]],
          'matmul_adj': [[5.0, 8.0], [20.0, 28.0]],
          'matvec': [8.0, 19.0],
          'name': 'LinearOperatorFullMatrix_o_LinearOperatorDiag',
          'rank': 2,
          'shape': [2, 2],
          'shape_t': [2, 2],
          'solve': [[0.0, 0.3999999761581421], [0.5, 0.6000000238418579]],
          'solve_adj': [[0.30000001192092896, 0.800000011920929],
                        [0.4000000059604645, 0.4000000059604645]],
          'solvevec': [0.3999999761581421, 0.6000000238418579],
          'trace': 8.0},
 'diag': {'H': [[1.0, 0.0], [0.0, 2.0]],
          'add': [[2.0, 1.0], [1.0, 3.0]],
          'batch': [],
          'dense': [[1.0, 0.0], [0.0, 2.0]],
          'det': 2.0,
          'diag': [1.0, 2.0],
          'dtype': 'float32',
          'hints': [None, True, None, True],
          'inv': [[1.0, 0.0], [0.0, 0.5]],
          'lad': 0.6931471824645996,
          'matmul': [[1.0, 2.0], [6.0, 8.0]],
          'matmul_adj': [[1.0, 2.0], [6.0, 8.0]],
          'matvec': [1.0, 6.0],
          'name': 'LinearOperatorDiag',
          'rank': 2,
          'shape': [2, 2],
          'shape_t': [2, 2],
          'solve': [[1.0, 2.0], [1.5, 2.0]],
          'solve_adj': [[1.0, 2.0], [1.5, 2.0]],
          'solvevec': [2.0, 2.0],
          'trace': 3.0},
 'full': {'H': [[2.0, 1.0], [1.0, 3.0]],
          'add': [[3.0, 2.0], [2.0, 4.0]],
          'batch': [],
          'dense': [[2.0, 1.0], [1.0, 3.0]],
          'det': 5.0,
          'diag': [2.0, 3.0],
          'dtype': 'float32',
          'hints': [True, True, True, True],
          'inv': [[0.5999999642372131, -0.20000000298023224],
                  [-0.19999997317790985, 0.4000000059604645]],
          'lad': 1.6094379425048828,
          'matmul': [[5.0, 8.0], [10.0, 14.0]],
          'matmul_adj': [[5.0, 8.0], [10.0, 14.0]],
          'matvec': [5.0, 10.0],
          'name': 'LinearOperatorFullMatrix',
          'rank': 2,
          'shape': [2, 2],
          'shape_t': [2, 2],
          'solve': [[0.0, 0.4000000059604645], [1.0, 1.1999999284744263]],
          'solve_adj': [[0.0, 0.4000000059604645], [1.0, 1.1999999284744263]],
          'solvevec': [0.4000000059604645, 1.1999999284744263],
          'trace': 5.0},
 'fullb': {'H': [[[1.0, 3.0], [2.0, 4.0]], [[2.0, 1.0], [0.0, 5.0]]],
           'add': [[[2.0, 3.0], [4.0, 5.0]], [[3.0, 1.0], [2.0, 6.0]]],
           'batch': [2],
           'dense': [[[1.0, 2.0], [3.0, 4.0]], [[2.0, 0.0], [1.0, 5.0]]],
           'det': [-2.0, 10.0],
           'diag': [[1.0, 4.0], [2.0, 5.0]],
           'dtype': 'float32',
           'hints': [None, None, None, True],
           'inv': [[[-2.000000238418579, 1.0000001192092896],
                    [1.5000001192092896, -0.5000000596046448]],
                   [[0.5, 0.0], [-0.10000000149011612, 0.20000000298023224]]],
           'lad': [0.6931471824645996, 2.3025851249694824],
           'matmul': [[[7.0, 10.0], [15.0, 22.0]], [[2.0, 4.0], [16.0, 22.0]]],
           'matmul_adj': [[[10.0, 14.0], [14.0, 20.0]], [[5.0, 8.0], [15.0, 20.0]]],
           'matvec': [[7.0, 15.0], [2.0, 16.0]],
           'name': 'LinearOperatorFullMatrix',
           'rank': 3,
           'shape': [2, 2, 2],
           'shape_t': [2, 2, 2],
           'solve': [[[1.0, 0.0], [0.0, 1.0]], [[0.5, 1.0], [0.5, 0.6000000238418579]]],
           'solve_adj': [[[2.5, 2.0], [-0.5, 0.0]],
                         [[0.19999998807907104, 0.6000000238418579],
                          [0.6000000238418579, 0.800000011920929]]],
           'solvevec': [[0.0, 1.0], [1.0, 0.6000000238418579]],
           'trace': [5.0, 7.0]},
 'hh': {'H': [[0.7777777910232544, -0.444444477558136, -0.444444477558136],
              [-0.444444477558136, 0.11111104488372803, -0.888888955116272],
              [-0.444444477558136, -0.888888955116272, 0.11111104488372803]],
        'add': [[1.7777777910232544, 0.555555522441864, 0.555555522441864],
                [0.555555522441864, 1.111111044883728, 0.11111104488372803],
                [0.555555522441864, 0.11111104488372803, 1.111111044883728]],
        'batch': [],
        'dense': [[0.7777777910232544, -0.444444477558136, -0.444444477558136],
                  [-0.444444477558136, 0.11111104488372803, -0.888888955116272],
                  [-0.444444477558136, -0.888888955116272, 0.11111104488372803]],
        'det': -1.0,
        'diag': [0.7777777910232544, 0.11111104488372803, 0.11111104488372803],
        'dtype': 'float32',
        'hints': [None, True, False, True],
        'inv': [[0.7777777910232544, -0.444444477558136, -0.444444477558136],
                [-0.444444477558136, 0.11111104488372803, -0.888888955116272],
                [-0.444444477558136, -0.888888955116272, 0.11111104488372803]],
        'lad': 0.0,
        'matmul': [[-2.777778148651123, -2.8888893127441406],
                   [-4.555556297302246, -5.777778625488281],
                   [-2.555556297302246, -3.7777786254882812]],
        'matmul_adj': [[-2.777778148651123, -2.8888893127441406],
                       [-4.555556297302246, -5.777778625488281],
                       [-2.555556297302246, -3.7777786254882812]],
        'matvec': [-2.777778148651123, -4.555556297302246, -2.555556297302246],
        'name': 'LinearOperatorHouseholder',
        'rank': 2,
        'shape': [3, 3],
        'shape_t': [3, 3],
        'solve': [[-2.777778148651123, -2.8888893127441406],
                  [-4.555556297302246, -5.777778625488281],
                  [-2.555556297302246, -3.7777786254882812]],
        'solve_adj': [[-2.777778148651123, -2.8888893127441406],
                      [-4.555556297302246, -5.777778625488281],
                      [-2.555556297302246, -3.7777786254882812]],
        'solvevec': [-2.8888893127441406, -5.777778625488281, -3.7777786254882812],
        'trace': 1.0},
 'ident': {'H': [[[1.0, 0.0], [0.0, 1.0]], [[1.0, 0.0], [0.0, 1.0]], [[1.0, 0.0], [0.0, 1.0]]],
           'add': [[2.0, 1.0], [1.0, 2.0]],
           'batch': [3],
           'dense': [[[1.0, 0.0], [0.0, 1.0]], [[1.0, 0.0], [0.0, 1.0]], [[1.0, 0.0], [0.0, 1.0]]],
           'det': [1.0, 1.0, 1.0],
           'diag': [[1.0, 1.0], [1.0, 1.0], [1.0, 1.0]],
           'dtype': 'float32',
           'hints': [True, True, True, True],
           'inv': [[[1.0, 0.0], [0.0, 1.0]], [[1.0, 0.0], [0.0, 1.0]], [[1.0, 0.0], [0.0, 1.0]]],
           'lad': [0.0, 0.0, 0.0],
           'matmul': [[[1.0, 2.0], [3.0, 4.0]], [[1.0, 2.0], [3.0, 4.0]], [[1.0, 2.0], [3.0, 4.0]]],
           'matmul_adj': [[[1.0, 2.0], [3.0, 4.0]], [[1.0, 2.0], [3.0, 4.0]],
                          [[1.0, 2.0], [3.0, 4.0]]],
           'matvec': [[1.0, 3.0], [1.0, 3.0], [1.0, 3.0]],
           'name': 'LinearOperatorIdentity',
           'rank': 3,
           'shape': [3, 2, 2],
           'shape_t': [3, 2, 2],
           'solve': [[[1.0, 2.0], [3.0, 4.0]], [[1.0, 2.0], [3.0, 4.0]], [[1.0, 2.0], [3.0, 4.0]]],
           'solve_adj': [[[1.0, 2.0], [3.0, 4.0]], [[1.0, 2.0], [3.0, 4.0]],
                         [[1.0, 2.0], [3.0, 4.0]]],
           'solvevec': [[2.0, 4.0], [2.0, 4.0], [2.0, 4.0]],
           'trace': [2.0, 2.0, 2.0]},
 'inv': {'H': [[-2.000000238418579, 1.5000001192092896], [1.0000001192092896, -0.5000000596046448]],
         'add': [[-1.000000238418579, 2.0], [2.5, 0.4999999403953552]],
         'batch': [],
         'dense': [[-2.000000238418579, 1.0000001192092896],
                   [1.5000001192092896, -0.5000000596046448]],
         'det': -0.5,
         'diag': [-2.000000238418579, -0.5000000596046448],
         'dtype': 'float32',
         'hints': [None, None, None, True],
         'inv': [[1.0, 2.0], [3.0, 4.0]],
         'lad': -0.6931471824645996,
         'matmul': [[1.0, 0.0], [0.0, 1.0]],
         'matmul_adj': [[2.5, 2.0], [-0.5, 0.0]],
         'matvec': [1.0, 0.0],
         'name': 'LinearOperatorFullMatrix_inv',
         'rank': 2,
         'shape': [2, 2],
         'shape_t': [2, 2],
         'solve': [[7.0, 10.0], [15.0, 22.0]],
         'solve_adj': [[10.0, 14.0], [14.0, 20.0]],
         'solvevec': [10.0, 22.0],
         'trace': -2.500000238418579},
 'kron': {'H': [[2.0, 0.0, 2.0, 1.0, 0.0, 1.0], [4.0, 2.0, 0.0, 2.0, 1.0, 0.0],
                [0.0, 2.0, 6.0, 0.0, 1.0, 3.0], [1.0, 0.0, 1.0, 3.0, 0.0, 3.0],
                [2.0, 1.0, 0.0, 6.0, 3.0, 0.0], [0.0, 1.0, 3.0, 0.0, 3.0, 9.0]],
          'add': [[3.0, 5.0, 1.0, 2.0, 3.0, 1.0], [1.0, 3.0, 3.0, 1.0, 2.0, 2.0],
                  [3.0, 1.0, 7.0, 2.0, 1.0, 4.0], [2.0, 3.0, 1.0, 4.0, 7.0, 1.0],
                  [1.0, 2.0, 2.0, 1.0, 4.0, 4.0], [2.0, 1.0, 4.0, 4.0, 1.0, 10.0]],
          'batch': [],
          'dense': [[2.0, 4.0, 0.0, 1.0, 2.0, 0.0], [0.0, 2.0, 2.0, 0.0, 1.0, 1.0],
                    [2.0, 0.0, 6.0, 1.0, 0.0, 3.0], [1.0, 2.0, 0.0, 3.0, 6.0, 0.0],
                    [0.0, 1.0, 1.0, 0.0, 3.0, 3.0], [1.0, 0.0, 3.0, 3.0, 0.0, 9.0]],
          'det': 3125.0,
          'diag': [2.0, 2.0, 6.0, 3.0, 3.0, 9.0],
          'dtype': 'float32',
          'hints': [None, None, None, True],
          'inv': [[0.36000001430511475, -0.7200000286102295, 0.23999999463558197,
                   -0.12000000476837158, 0.24000000953674316, -0.07999999821186066],
                  [0.11999999731779099, 0.36000001430511475, -0.11999999731779099,
                   -0.03999999910593033, -0.12000000476837158, 0.03999999910593033],
                  [-0.12000000476837158, 0.24000000953674316, 0.12000000476837158,
                   0.04000000283122063, -0.08000000566244125, -0.04000000283122063],
                  [-0.12000000476837158, 0.24000000953674316, -0.07999999821186066,
                   0.24000000953674316, -0.48000001907348633, 0.1599999964237213],
                  [-0.03999999910593033, -0.12000000476837158, 0.03999999910593033,
                   0.07999999821186066, 0.24000000953674316, -0.07999999821186066],
                  [0.04000000283122063, -0.08000000566244125, -0.04000000283122063,
                   -0.08000000566244125, 0.1600000113248825, 0.08000000566244125]],
          'lad': 8.047189712524414,
          'matmul': [[39.0, 48.0], [36.0, 42.0], [72.0, 84.0], [82.0, 94.0], [68.0, 76.0],
                     [136.0, 152.0]],
          'matmul_adj': [[30.0, 36.0], [33.0, 42.0], [78.0, 90.0], [60.0, 68.0], [74.0, 86.0],
                         [144.0, 160.0]],
          'matvec': [39.0, 36.0, 72.0, 82.0, 68.0, 136.0],
          'name': 'LinearOperatorFullMatrix_x_LinearOperatorFullMatrix',
          'rank': 2,
          'shape': [6, 6],
          'shape_t': [6, 6],
          'solve': [[-0.15999984741210938, -0.24000003933906555],
                    [-0.3200001120567322, -0.07999998331069946],
                    [0.3199999928474426, 0.48000001907348633],
                    [-0.6800003051757812, -0.7200002074241638],
                    [1.6400002241134644, 1.7600001096725464],
                    [1.3600000143051147, 1.440000057220459]],
          'solve_adj': [[-0.64000004529953, -0.3999999761581421],
                        [1.2799999713897705, 1.1999999284744263], [-0.1599999964237213, 0.0],
                        [1.4800001382827759, 1.600000023841858],
                        [0.03999986872076988, -4.7683716530855236e-08],
                        [1.1200000047683716, 1.2000000476837158]],
          'solvevec': [-0.24000003933906555, -0.07999998331069946, 0.48000001907348633,
                       -0.7200002074241638, 1.7600001096725464, 1.440000057220459],
          'trace': 25.0},
 'lru': {'H': [[2.0, 2.0], [2.0, 6.0]],
         'add': [[3.0, 3.0], [3.0, 7.0]],
         'batch': [],
         'dense': [[2.0, 2.0], [2.0, 6.0]],
         'det': 8.0,
         'diag': [2.0, 6.0],
         'dtype': 'float32',
         'hints': [True, True, True, True],
         'inv': [[0.75, -0.25], [-0.25, 0.25]],
         'lad': 2.079441547393799,
         'matmul': [[8.0, 12.0], [20.0, 28.0]],
         'matmul_adj': [[8.0, 12.0], [20.0, 28.0]],
         'matvec': [8.0, 20.0],
         'name': 'LinearOperatorLowRankUpdate',
         'rank': 2,
         'shape': [2, 2],
         'shape_t': [2, 2],
         'solve': [[0.0, 0.5], [0.5, 0.5]],
         'solve_adj': [[0.0, 0.5], [0.5, 0.5]],
         'solvevec': [0.5, 0.5],
         'trace': 8.0},
 'lru2': {'H': [[3.0, 3.0], [3.0, 7.0]],
          'add': [[4.0, 4.0], [4.0, 8.0]],
          'batch': [],
          'dense': [[3.0, 3.0], [3.0, 7.0]],
          'det': 12.0,
          'diag': [3.0, 7.0],
          'dtype': 'float32',
          'hints': [None, None, None, True],
          'inv': [[0.5833333730697632, -0.25], [-0.25, 0.25]],
          'lad': 2.4849066734313965,
          'matmul': [[12.0, 18.0], [24.0, 34.0]],
          'matmul_adj': [[12.0, 18.0], [24.0, 34.0]],
          'matvec': [12.0, 24.0],
          'name': 'LinearOperatorLowRankUpdate',
          'rank': 2,
          'shape': [2, 2],
          'shape_t': [2, 2],
          'solve': [[-0.1666666567325592, 0.16666662693023682], [0.5, 0.5]],
          'solve_adj': [[-0.1666666567325592, 0.16666662693023682], [0.5, 0.5]],
          'solvevec': [0.16666662693023682, 0.5],
          'trace': 10.0},
 'scaled': {'H': [[3.0, 0.0], [0.0, 3.0]],
            'add': [[4.0, 1.0], [1.0, 4.0]],
            'batch': [],
            'dense': [[3.0, 0.0], [0.0, 3.0]],
            'det': 9.0,
            'diag': [3.0, 3.0],
            'dtype': 'float32',
            'hints': [None, True, None, True],
            'inv': [[0.3333333432674408, 0.0], [0.0, 0.3333333432674408]],
            'lad': 2.1972246170043945,
            'matmul': [[3.0, 6.0], [9.0, 12.0]],
            'matmul_adj': [[3.0, 6.0], [9.0, 12.0]],
            'matvec': [3.0, 9.0],
            'name': 'LinearOperatorScaledIdentity',
            'rank': 2,
            'shape': [2, 2],
            'shape_t': [2, 2],
            'solve': [[0.3333333432674408, 0.6666666865348816], [1.0, 1.3333333730697632]],
            'solve_adj': [[0.3333333432674408, 0.6666666865348816], [1.0, 1.3333333730697632]],
            'solvevec': [0.6666666865348816, 1.3333333730697632],
            'trace': 6.0},
 'toep': {'H': [[1.0, 2.0, 3.0], [4.0, 1.0, 2.0], [5.0, 4.0, 1.0]],
          'add': [[2.0, 5.0, 6.0], [3.0, 2.0, 5.0], [4.0, 3.0, 2.0]],
          'batch': [],
          'dense': [[1.0, 4.0, 5.0], [2.0, 1.0, 4.0], [3.0, 2.0, 1.0]],
          'det': 38.0,
          'diag': [1.0, 1.0, 1.0],
          'dtype': 'float32',
          'hints': [None, None, None, True],
          'inv': [[-0.18421053886413574, 0.15789473056793213, 0.2894737124443054],
                  [0.2631579041481018, -0.3684210479259491, 0.15789474546909332],
                  [0.02631579525768757, 0.2631579041481018, -0.18421053886413574]],
          'lad': 3.6375861167907715,
          'matmul': [[38.0, 48.0], [25.0, 32.0], [14.0, 20.0]],
          'matmul_adj': [[22.0, 28.0], [17.0, 24.0], [22.0, 32.0]],
          'matvec': [38.0, 25.0, 14.0],
          'name': 'LinearOperatorToeplitz',
          'rank': 2,
          'shape': [3, 3],
          'shape_t': [3, 3],
          'solve': [[1.736842155456543, 2.0], [-0.05263153091073036, 0.0],
                    [-0.10526321083307266, 0.0]],
          'solve_adj': [[0.7368420958518982, 0.8421052098274231],
                        [0.3684210479259491, 0.4210526645183563],
                        [-0.15789474546909332, 0.1052631065249443]],
          'solvevec': [2.0, 0.0, 0.0],
          'trace': 3.0},
 'tril': {'H': [[2.0, 1.0], [0.0, 3.0]],
          'add': [[3.0, 1.0], [2.0, 4.0]],
          'batch': [],
          'dense': [[2.0, 0.0], [1.0, 3.0]],
          'det': 6.0,
          'diag': [2.0, 3.0],
          'dtype': 'float32',
          'hints': [None, None, None, True],
          'inv': [[0.5, 0.0], [-0.1666666716337204, 0.3333333432674408]],
          'lad': 1.7917594909667969,
          'matmul': [[2.0, 4.0], [10.0, 14.0]],
          'matmul_adj': [[5.0, 8.0], [9.0, 12.0]],
          'matvec': [2.0, 10.0],
          'name': 'LinearOperatorLowerTriangular',
          'rank': 2,
          'shape': [2, 2],
          'shape_t': [2, 2],
          'solve': [[0.5, 1.0], [0.8333333730697632, 1.0]],
          'solve_adj': [[0.0, 0.3333333134651184], [1.0, 1.3333333730697632]],
          'solvevec': [1.0, 1.0],
          'trace': 5.0},
 'zeros': {'H': [[0.0, 0.0], [0.0, 0.0]],
           'add': [[1.0, 1.0], [1.0, 1.0]],
           'batch': [],
           'dense': [[0.0, 0.0], [0.0, 0.0]],
           'diag': [0.0, 0.0],
           'dtype': 'float32',
           'hints': [False, True, False, True],
           'matmul': [[0.0, 0.0], [0.0, 0.0]],
           'matmul_adj': [[0.0, 0.0], [0.0, 0.0]],
           'matvec': [0.0, 0.0],
           'name': 'LinearOperatorZeros',
           'rank': 2,
           'shape': [2, 2],
           'shape_t': [2, 2],
           'trace': 0.0}}


def make(L, tf):
  m=np.array([[2.,1.],[1.,3.]],np.float32)
  d=np.array([1.,2.],np.float32)
  return dict(
   full=L.LinearOperatorFullMatrix(m, is_self_adjoint=True, is_positive_definite=True),
   fullb=L.LinearOperatorFullMatrix(np.array([[[1.,2.],[3.,4.]],[[2.,0.],[1.,5.]]],np.float32)),
   diag=L.LinearOperatorDiag(d),
   ident=L.LinearOperatorIdentity(2, batch_shape=[3]),
   scaled=L.LinearOperatorScaledIdentity(2, 3.),
   tril=L.LinearOperatorLowerTriangular(np.array([[2.,5],[1,3]],np.float32)),
   zeros=L.LinearOperatorZeros(2),
   comp=L.LinearOperatorComposition([L.LinearOperatorFullMatrix(m), L.LinearOperatorDiag(d)]),
   adj=L.LinearOperatorAdjoint(L.LinearOperatorFullMatrix(np.array([[1.,2.],[3.,4.]],np.float32))),
   inv=L.LinearOperatorInversion(L.LinearOperatorFullMatrix(np.array([[1.,2.],[3.,4.]],np.float32))),
   kron=L.LinearOperatorKronecker([L.LinearOperatorFullMatrix(m), L.LinearOperatorFullMatrix(np.array([[1.,2,0],[0,1,1],[1,0,3]],np.float32))]),
   bd=L.LinearOperatorBlockDiag([L.LinearOperatorFullMatrix(m), L.LinearOperatorDiag([1.,2.,3.])]),
   lru=L.LinearOperatorLowRankUpdate(L.LinearOperatorDiag(d, is_positive_definite=True), np.array([[1.],[2.]],np.float32)),
   lru2=L.LinearOperatorLowRankUpdate(L.LinearOperatorFullMatrix(m), np.array([[1.],[2.]],np.float32), diag_update=[2.], v=np.array([[0.5],[1.]],np.float32)),
   circ=L.LinearOperatorCirculant(np.array([6.,-1.,-1.],np.float32), input_output_dtype=tf.float32),
   toep=L.LinearOperatorToeplitz([1.,2.,3.],[1.,4.,5.]),
   hh=L.LinearOperatorHouseholder([1.,2.,2.]),
  )
HINTS=["is_non_singular","is_self_adjoint","is_positive_definite","is_square"]
def record(L, tf):
  out={}
  for k,o in make(L, tf).items():
    n=int(o.shape[-1])
    x=np.arange(1, n*2+1, dtype=np.float32).reshape(n,2)
    r=dict(name=o.name, shape=o.shape.as_list(), batch=o.batch_shape.as_list(), rank=o.tensor_rank,
           shape_t=np.asarray(o.shape_tensor()).tolist(), dtype=o.dtype.name,
           hints=[getattr(o,h) for h in HINTS],
           dense=np.asarray(o.to_dense()).tolist(), matmul=np.asarray(o.matmul(x)).tolist(),
           matmul_adj=np.asarray(o.matmul(x.T, adjoint=True, adjoint_arg=True)).tolist(),
           matvec=np.asarray(o.matvec(x[:,0])).tolist(),
           trace=np.asarray(o.trace()).tolist(), diag=np.asarray(o.diag_part()).tolist(),
           add=np.asarray(o.add_to_tensor(np.ones((n,n),np.float32))).tolist(),
           H=np.asarray(o.H.to_dense()).tolist())
    if k!='zeros':
      r.update(det=np.asarray(o.determinant()).tolist(), lad=np.asarray(o.log_abs_determinant()).tolist(),
               solve=np.asarray(o.solve(x)).tolist(), solve_adj=np.asarray(o.solve(x, adjoint=True)).tolist(),
               solvevec=np.asarray(o.solvevec(x[:,1])).tolist(),
               inv=np.asarray(o.inverse().to_dense()).tolist())
    out[k]=r
  return out


@pytest.fixture(scope="module")
def ours():
  return record(L, tf)


@pytest.mark.parametrize("key", sorted(GOLDEN))
def test_matches_tf(ours, key):
  got, want = ours[key], GOLDEN[key]
  assert sorted(got) == sorted(want)
  for field, value in want.items():
    if field in ("name", "shape", "batch", "rank", "shape_t", "dtype", "hints"):
      assert got[field] == value, field
    else:
      np.testing.assert_allclose(np.asarray(got[field], np.float64), np.asarray(value, np.float64),
                                 rtol=1e-4, atol=1e-5, err_msg=field)


def test_dtypes_and_static_shapes():
  op = L.LinearOperatorFullMatrix(np.ones((4, 2, 3), np.float32))
  assert op.shape == tf.TensorShape([4, 2, 3])
  assert op.batch_shape.as_list() == [4]
  assert op.domain_dimension.value == 3 and op.range_dimension.value == 2
  assert op.tensor_rank == 3 and op.is_square is False
  assert op.batch_shape_tensor().numpy().tolist() == [4]
  assert op.tensor_rank_tensor().numpy() == 3
  assert op.domain_dimension_tensor().dtype == tf.int32
  y = op.matvec(np.ones((4, 3), np.float32))
  assert y.dtype == tf.float32 and y.shape.as_list() == [4, 2]
  d = L.LinearOperatorDiag(np.array([1., 2.]))
  assert d.dtype == tf.float64 and d.solve(np.ones((2, 1))).dtype == tf.float64


def _error(fn):
  with pytest.raises(Exception) as info:
    fn()
  return type(info.value).__name__, str(info.value)


M2 = np.array([[2., 1.], [1., 3.]], np.float32)
D2 = np.array([1., 2.], np.float32)
FM = L.LinearOperatorFullMatrix


@pytest.mark.parametrize("fn, kind, message", [
    (lambda: FM(M2, is_positive_definite=True, is_non_singular=False), "ValueError",
     "A positive definite matrix is always non-singular."),
    (lambda: FM(M2, is_non_singular=True, is_square=False), "ValueError",
     "A non-singular matrix is always square."),
    (lambda: FM(M2, is_self_adjoint=True, is_square=False), "ValueError",
     "A self-adjoint matrix is always square."),
    (lambda: FM(np.ones(3, np.float32)), "ValueError",
     "Argument `matrix` must have at least 2 dimensions."),
    (lambda: FM(np.ones((2, 2), np.int32)), "TypeError",
     "Argument `matrix` must have dtype in [tf.float16, tf.float32, tf.float64, tf.complex64, "
     "tf.complex128]."),
    (lambda: FM(M2).matmul(np.ones((3, 2), np.float32)), "ValueError",
     "Dimensions 2 and 3 are not compatible"),
    (lambda: FM(np.ones((4, 2, 3), np.float32)).matvec(np.ones((4, 2), np.float32)), "ValueError",
     "Dimensions 3 and 2 are not compatible"),
    (lambda: FM(M2).matmul(np.ones((2, 2), np.float64)), "TypeError",
     "Expected argument to have dtype <dtype: 'float32'>.  Found: <dtype: 'float64'>"),
    (lambda: FM(np.ones((2, 3), np.float32)).determinant(), "NotImplementedError",
     "Determinant not implemented for an operator that is expected to not be square."),
    (lambda: FM(np.ones((2, 3), np.float32)).inverse(), "ValueError",
     "Cannot take the Inverse: This operator represents a non square matrix."),
    (lambda: FM(M2, is_non_singular=False).inverse(), "ValueError",
     "Cannot take the Inverse: This operator represents a singular matrix."),
    (lambda: FM(M2, is_non_singular=False).solve(M2), "NotImplementedError",
     "Exact solve not implemented for an operator that is expected to be singular."),
    (lambda: FM(M2).cholesky(), "ValueError",
     "Cannot take the Cholesky decomposition: Not a positive definite self adjoint matrix."),
    (lambda: FM(np.array([[1., 2.], [3., 4.]], np.float32)).assert_positive_definite(),
     "NotImplementedError", "assert_positive_definite is not implemented."),
    (lambda: FM(np.array([[1., 2.], [3., 4.]], np.float32)).assert_self_adjoint(),
     "InvalidArgumentError", "Matrix was not equal to its adjoint."),
    (lambda: FM(np.array([[1., 2.], [2., 4.]], np.float32)).assert_non_singular(),
     "InvalidArgumentError", "Singular matrix up to precision epsilon."),
    (lambda: L.LinearOperator(tf.float32), "TypeError", "abstract"),
    (lambda: L.LinearOperatorDiag(D2, is_self_adjoint=False), "ValueError",
     "A real diagonal operator is always self adjoint."),
    (lambda: L.LinearOperatorDiag(D2, is_square=False), "ValueError",
     "Only square diagonal operators currently supported."),
    (lambda: L.LinearOperatorDiag(np.float32(1.)), "ValueError",
     "Argument diag must have at least 1 dimension."),
    (lambda: L.LinearOperatorLowerTriangular(M2, is_square=False), "ValueError",
     "Only square lower triangular operators supported at this time."),
    (lambda: L.LinearOperatorIdentity(2, is_self_adjoint=False), "ValueError",
     "An identity operator is always self adjoint."),
    (lambda: L.LinearOperatorIdentity(2, is_positive_definite=False), "ValueError",
     "An identity operator is always positive-definite."),
    (lambda: L.LinearOperatorIdentity(-1), "ValueError",
     "Argument num_rows must be non-negative.  Found: -1"),
    (lambda: L.LinearOperatorIdentity(2.5), "TypeError", "Argument num_rows must be integer type."),
    (lambda: L.LinearOperatorIdentity([2]), "ValueError",
     "Argument num_rows must be a 0-D Tensor.  Found: [2]"),
    (lambda: L.LinearOperatorIdentity(2, batch_shape=[-1]), "ValueError",
     "Argument batch_shape must be non-negative.  Found:[-1]"),
    (lambda: L.LinearOperatorScaledIdentity(2, 3., is_square=False), "ValueError",
     "A ScaledIdentity operator is always square."),
    (lambda: L.LinearOperatorZeros(2, is_non_singular=True), "ValueError",
     "A zero operator is always singular."),
    (lambda: L.LinearOperatorZeros(2, is_positive_definite=True), "ValueError",
     "A zero operator is always not positive-definite."),
    (lambda: L.LinearOperatorZeros(2, 3), "ValueError",
     "LinearOperatorZeros initialized as is_square=True, but got num_rows(2) != num_columns(3)"),
    (lambda: L.LinearOperatorAdjoint(FM(M2), is_square=False), "ValueError",
     "An operator is square if and only if its adjoint is square."),
    (lambda: L.LinearOperatorAdjoint(FM(M2, is_non_singular=True), is_non_singular=False),
     "ValueError", "An operator is non-singular if and only if its adjoint is non-singular."),
    (lambda: L.LinearOperatorInversion(FM(np.ones((2, 3), np.float32))), "ValueError",
     "Argument `is_square` or argument `operator` must have supplied hint `is_square` equal to "
     "`True` or `None`. Found `operator.is_square`: False, `is_square`: None."),
    (lambda: L.LinearOperatorInversion(FM(M2, is_self_adjoint=True), is_self_adjoint=False),
     "ValueError", "An operator is self-adjoint if and only if its inverse is self-adjoint."),
    (lambda: L.LinearOperatorComposition([]), "ValueError",
     "Expected a non-empty list of operators. Found: []"),
    (lambda: L.LinearOperatorComposition([FM(M2), FM(M2.astype(np.float64))]), "TypeError",
     "Expected all operators to have the same dtype.  Found ('LinearOperatorFullMatrix', "
     "tf.float32)   ('LinearOperatorFullMatrix', tf.float64)"),
    (lambda: L.LinearOperatorComposition([FM(M2, is_non_singular=True)] * 2,
                                         is_non_singular=False), "ValueError",
     "The composition of non-singular operators is always non-singular."),
    (lambda: L.LinearOperatorKronecker([]), "ValueError",
     "Argument `operators` must be a list of >=1 operators. Received: []."),
    (lambda: L.LinearOperatorKronecker([FM(M2, is_self_adjoint=True)] * 2, is_self_adjoint=False),
     "ValueError", "The Kronecker product of self-adjoint operators is always self-adjoint. "
     "Expected argument `is_self_adjoint` to be True. Received: False."),
    (lambda: L.LinearOperatorBlockDiag([FM(M2, is_non_singular=True)] * 2, is_non_singular=False),
     "ValueError", "The direct sum of non-singular operators is always non-singular."),
    (lambda: L.LinearOperatorLowRankUpdate(FM(M2), np.ones((2, 1), np.float32),
                                           is_diag_update_positive=False), "ValueError",
     "Default diagonal is the identity, which is positive.  However, user set "
     "'is_diag_update_positive' to False."),
    (lambda: L.LinearOperatorLowRankUpdate(FM(M2), np.ones((3, 1), np.float32)), "ValueError",
     "Dimensions 2 and 3 are not compatible"),
    (lambda: L.LinearOperatorCirculant(np.ones(3, np.float32), is_square=False), "ValueError",
     "A [[nested] block] circulant operator is always square. Expected argument `is_square` to be "
     "True. Received: False."),
    (lambda: L.LinearOperatorToeplitz(D2, np.ones(3, np.float32)), "ValueError",
     "Expected square matrix, got row and col with mismatched dimensions."),
    (lambda: L.LinearOperatorToeplitz(D2, D2, is_square=False), "ValueError",
     "Only square Toeplitz operators currently supported."),
    (lambda: L.LinearOperatorHouseholder(D2, is_positive_definite=True), "ValueError",
     "A Householder operator is always non-positive definite."),
])
def test_errors(fn, kind, message):
  got_kind, got_message = _error(fn)
  assert got_kind == kind
  assert message in got_message


def test_hints_are_implied():
  op = FM(M2, is_positive_definite=True)
  assert op.is_square is True and op.is_non_singular is True and op.is_self_adjoint is None
  assert FM(M2, is_positive_definite=True, is_self_adjoint=False).is_self_adjoint is False
  comp = L.LinearOperatorComposition([FM(M2, is_non_singular=True, is_square=True)] * 2)
  assert [comp.is_non_singular, comp.is_square, comp.is_self_adjoint,
          comp.is_positive_definite] == [True, True, None, None]
  lru = L.LinearOperatorLowRankUpdate(FM(M2, is_positive_definite=True, is_self_adjoint=True),
                                      np.ones((2, 1), np.float32))
  assert [lru.is_non_singular, lru.is_self_adjoint, lru.is_positive_definite] == [True] * 3
  circ = L.LinearOperatorCirculant(np.ones(3, np.float32))
  assert circ.dtype == tf.complex64 and circ.is_self_adjoint is True
  assert L.LinearOperatorScaledIdentity(2, 3.).is_self_adjoint is True


def test_algebra_results():
  a, b = FM(M2), FM(np.array([[1., 2.], [3., 4.]], np.float32))
  comp = a @ b
  assert isinstance(comp, L.LinearOperatorComposition)
  assert comp.name == "LinearOperatorFullMatrix_o_LinearOperatorFullMatrix"
  np.testing.assert_allclose(comp.to_dense().numpy(), [[5., 8.], [10., 14.]])
  np.testing.assert_allclose((a @ M2).numpy(), [[5., 5.], [5., 10.]])
  assert a.H.name == "LinearOperatorFullMatrix_adjoint"
  assert isinstance(a.H, L.LinearOperatorAdjoint)
  assert a.inverse().name == "LinearOperatorFullMatrix_inv"
  assert FM(M2, name="A").name == "A"
  sym = FM(M2, is_self_adjoint=True, is_positive_definite=True)
  assert sym.adjoint() is sym
  chol = sym.cholesky()
  assert isinstance(chol, L.LinearOperatorLowerTriangular)
  np.testing.assert_allclose(chol.to_dense().numpy(), [[1.4142135, 0.], [0.70710677, 1.5811388]],
                             rtol=1e-6)
  np.testing.assert_allclose(b.matmul(b.inverse()).to_dense().numpy(), np.eye(2), atol=1e-5)
  assert sym.assert_self_adjoint() is None and sym.assert_positive_definite() is None
  assert sym.assert_non_singular() is None
  assert a.graph_parents and a.graph_parents[0].dtype == tf.float32


def test_gradients_match_tf():
  m = tf.constant([[2., 1.], [1., 3.]])
  b = tf.constant([[1.], [2.]])
  with tf.GradientTape() as tape:
    tape.watch(m)
    op = FM(m)
    y = tf.reduce_sum(op.solve(b)) + op.log_abs_determinant()
  np.testing.assert_allclose(tape.gradient(y, m).numpy(),
                             [[0.52, -0.44], [-0.24, 0.28]], rtol=1e-5)
  u, d = tf.constant([[1.], [2.]]), tf.constant([1., 2.])
  with tf.GradientTape() as tape:
    tape.watch([u, d])
    op = L.LinearOperatorLowRankUpdate(L.LinearOperatorDiag(d, is_positive_definite=True), u)
    y = tf.reduce_sum(op.solve(b)) + op.log_abs_determinant()
  gu, gd = tape.gradient(y, [u, d])
  np.testing.assert_allclose(gu.numpy(), [[0.], [0.375]], atol=1e-6)
  np.testing.assert_allclose(gd.numpy(), [0.625, 0.25], rtol=1e-5)
  with tf.GradientTape() as tape:
    tape.watch(d)
    op = L.LinearOperatorKronecker([L.LinearOperatorDiag(d), FM(m)])
    y = tf.reduce_sum(op.solvevec(tf.ones([4]))) + op.log_abs_determinant()
  np.testing.assert_allclose(tape.gradient(y, d).numpy(), [1.4, 0.85], rtol=1e-5)
