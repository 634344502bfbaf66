"""tf.train optimizers, schedules and global step; tf.keras.optimizers.

Golden values come from the TF oracle (TF 2.21's tf.compat.v1.train.* executing eagerly and
tf_keras.optimizers.legacy, the OptimizerV2 classes of TF 1.15) on the least-squares problem
below: w (3x2) and b (2,) after 1, 10, 60 and 100 steps, flattened as w then b.
"""
import numpy as np
import pytest

import tfe_compat as tf
from tfe_compat.train import optimizer_base, training_util

X = np.array([[1.7641, 0.4002, 0.9787], [2.2409, 1.8676, -0.9773], [0.9501, -0.1514, -0.1032],
              [0.4106, 0.144, 1.4543], [0.761, 0.1217, 0.4439], [0.3337, 1.4941, -0.2052],
              [0.3131, -0.8541, -2.553], [0.6536, 0.8644, -0.7422]], np.float32)
Y = np.array([[1.2124, -2.9798], [4.1565, -2.9261], [1.1309, -1.9356], [-0.9562, -0.2031],
              [0.2892, -1.4653], [1.2511, 0.7808], [2.562, -2.1259], [1.7893, -0.6957]],
             np.float32)
W0 = np.array([[0.1, 0.2], [0.3, 0.4], [0.5, 0.6]], np.float32)
B0 = np.array([0.5, -0.5], np.float32)

TF1_GOLDEN = {
    'GradientDescentOptimizer(0.05)': {
        1: [0.15481114, 0.10142531, 0.32765949, 0.36000246,
            0.39295831, 0.5842858, 0.53986585, -0.559802],
        10: [0.42202726, -0.43981609, 0.44650149, 0.22045158,
             -0.26726162, 0.45167899, 0.69361055, -0.82524264],
        60: [0.68394452, -1.1844617, 0.48510069, 0.57066977,
             -0.94353378, 0.23852777, 0.45374081, -0.67670786],
        100: [0.80683726, -1.4618089, 0.48080921, 0.74282789,
              -0.97485691, 0.23386894, 0.29958525, -0.48331466],
    },
    'MomentumOptimizer(0.05, 0.9)': {
        1: [0.15481114, 0.10142531, 0.32765949, 0.36000246,
            0.39295831, 0.5842858, 0.53986585, -0.559802],
        10: [0.77548492, -1.4124036, 0.53725731, 0.30378568,
             -1.6739297, 0.052492425, 0.69967985, -1.0373585],
        60: [1.1193539, -2.0906799, 0.41836131, 0.98986906,
             -1.058473, 0.24483009, 0.00022328948, 0.011277793],
        100: [1.0983291, -2.0410361, 0.4080129, 0.98841661,
              -0.99935234, 0.25941917, -0.004574596, 0.02946624],
    },
    'MomentumOptimizer(0.05, 0.9, use_nesterov=True)': {
        1: [0.20414117, 0.012708098, 0.35255301, 0.32400465,
            0.29662079, 0.57014298, 0.57574517, -0.6136238],
        10: [0.69649124, -1.3005693, 0.49035501, 0.46768737,
             -1.4656801, 0.078152999, 0.56034714, -0.86663103],
        60: [1.1086501, -2.0640965, 0.40783933, 0.99924827,
             -1.0068169, 0.25790021, -0.014562727, 0.042157073],
        100: [1.0992582, -2.0412006, 0.40851212, 0.98532218,
              -0.99930149, 0.26013368, -0.0023445077, 0.027593739],
    },
    'AdamOptimizer(0.05)': {
        1: [0.14999999, 0.15000001, 0.34999999, 0.35000002,
            0.44999999, 0.55000007, 0.55000001, -0.55000001],
        10: [0.52934897, -0.27908164, 0.65706211, -0.030622249,
             0.0090799704, 0.20927992, 0.89586473, -0.96701252],
        60: [0.95418805, -1.3700528, 0.48167953, 0.77342612,
             -1.0499456, 0.21729651, 0.070656396, -0.63565814],
        100: [1.1154867, -1.8292668, 0.39737043, 0.90651089,
              -0.99265569, 0.25125426, -0.010866887, -0.16006827],
    },
    'AdagradOptimizer(0.3)': {
        1: [0.38824642, -0.096213683, 0.56044871, 0.12100798,
            0.20322022, 0.38852271, 0.77886736, -0.79003382],
        10: [0.64452577, -0.72004282, 0.45349264, 0.38351017,
             -0.60265374, 0.22951484, 0.57016397, -0.97789592],
        60: [1.0607954, -1.6816874, 0.41930401, 0.86411923,
             -0.99362391, 0.24417464, 0.035458166, -0.28810516],
        100: [1.0952526, -1.9076382, 0.40956512, 0.9402675,
              -0.9988507, 0.25422201, 0.0015990029, -0.089593917],
    },
    'AdadeltaOptimizer(1.0)': {
        1: [0.10044722, 0.19955279, 0.30044723, 0.39955279,
            0.49955279, 0.59955281, 0.50044721, -0.50044721],
        10: [0.10459661, 0.19539416, 0.30458969, 0.39540255,
             0.49538997, 0.5954079, 0.50459319, -0.50460315],
        60: [0.12813091, 0.17139596, 0.32777208, 0.37183222,
             0.47117984, 0.57209945, 0.52795446, -0.52845877],
        100: [0.14684084, 0.15179026, 0.3457976, 0.35306934,
              0.45115849, 0.55381346, 0.54632264, -0.54778105],
    },
    'RMSPropOptimizer(0.01)': {
        1: [0.11085331, 0.18263307, 0.30573446, 0.39185247,
            0.48163113, 0.5967052, 0.5081225, -0.51171094],
        10: [0.19723627, 0.069325015, 0.35811892, 0.32220232,
             0.36369875, 0.56014729, 0.57734215, -0.60278058],
        60: [0.52813524, -0.36688817, 0.47446772, 0.14950396,
             -0.11001694, 0.28514862, 0.7314142, -0.96705878],
        100: [0.81101269, -0.7107237, 0.40407661, 0.46452996,
              -0.4652169, 0.22611371, 0.41931614, -0.98757988],
    },
    'RMSPropOptimizer(0.01, momentum=0.5, centered=True)': {
        1: [0.11091781, 0.18236509, 0.3057439, 0.39182529,
            0.48131317, 0.59670341, 0.50814945, -0.51179212],
        10: [0.28259286, -0.072183214, 0.39859807, 0.26390707,
             0.20849168, 0.52832741, 0.63575262, -0.69518185],
        60: [0.82394111, -1.2589369, 0.47108805, 0.69097501,
             -0.94027847, 0.22612508, 0.28946763, -0.65560997],
        100: [1.0999289, -2.0038199, 0.40816838, 0.97252727,
              -0.99937171, 0.25850278, -0.002895274, -0.0050516026],
    },
    'FtrlOptimizer(0.5, -0.5, 0.1, 0.01, 0.01)': {
        1: [0.54354733, -0.32125154, 0.56842935, -0.20385481,
            -0.065085143, -0.1631574, 0.76568478, -0.84471399],
        10: [0.80306911, -1.0722297, 0.46405226, 0.58563298,
             -0.90180945, 0.22724782, 0.32397377, -0.76869434],
        60: [1.0970182, -1.9683663, 0.40906563, 0.96035719,
             -0.99912524, 0.25671479, 0, -0.0369334],
        100: [1.0996046, -2.032017, 0.408272, 0.98200697,
              -0.9993434, 0.25973687, -0.002592084, 0.019668512],
    },
    'FtrlOptimizer(0.5, -0.7, l2_shrinkage_regularization_strength=0.1)': {
        1: [0.53082824, -0.19714679, 0.6509521, -0.24179231,
            0.085956447, -0.44374391, 0.80854636, -0.83276778],
        10: [0.72730267, -0.80711752, 0.40428993, 0.33553594,
             -0.65734518, 0.22407846, 0.3739481, -0.73734719],
        60: [0.81039107, -1.2861087, 0.41087723, 0.50567162,
             -0.86497599, 0.2351082, 0.24436308, -0.37393466],
        100: [0.81053513, -1.309122, 0.41087246, 0.5137918,
              -0.86525834, 0.23559795, 0.244169, -0.35695207],
    },
    'ProximalGradientDescentOptimizer(0.05, 0.01, 0.01)': {
        1: [0.15423404, 0.10087488, 0.326996, 0.35932282,
            0.39226219, 0.58349407, 0.5390963, -0.55902249],
        10: [0.41878641, -0.43692803, 0.44198084, 0.21439931,
             -0.26686689, 0.44650513, 0.68816632, -0.81824678],
        60: [0.6825645, -1.1665065, 0.4750973, 0.54022717,
             -0.9317711, 0.23327696, 0.44672003, -0.66209912],
        100: [0.80414206, -1.4321934, 0.46929154, 0.70122546,
              -0.96196377, 0.22942568, 0.29571101, -0.47346747],
    },
    'ProximalAdagradOptimizer(0.3, 0.1, 0.01, 0.01)': {
        1: [0.38460568, -0.094569139, 0.55313635, 0.11711192,
            0.20155452, 0.37924194, 0.77266735, -0.78570354],
        10: [0.64415318, -0.71024859, 0.44402227, 0.35607189,
             -0.59804493, 0.22461887, 0.55930823, -0.95822281],
        60: [1.0425826, -1.6339903, 0.41134444, 0.80951589,
             -0.97960567, 0.23963557, 0.047749549, -0.29028419],
        100: [1.0718662, -1.8403431, 0.40294445, 0.87966943,
              -0.98422813, 0.24848728, 0.019275701, -0.11074957],
    },
}
TF1_GS_GOLDEN = {
    'GradientDescentOptimizer(tf.train.exponential_decay(0.1, gs, 10, 0.5, True))': {
        1: [0.20962229, 0.0028506219, 0.35531893, 0.32000488,
            0.28591663, 0.56857157, 0.57973176, -0.61960399],
        10: [0.52455401, -0.71811569, 0.4738656, 0.25787273,
             -0.6403929, 0.34599116, 0.68467802, -0.87284011],
        60: [0.60799181, -0.98510778, 0.48030645, 0.42726868,
             -0.87611693, 0.26265097, 0.56557024, -0.78824401],
        100: [0.61023891, -0.99155205, 0.48048103, 0.43198934,
              -0.8794167, 0.26142558, 0.56204689, -0.78509504],
    },
    'MomentumOptimizer(tf.train.polynomial_decay(0.1, gs, 50), 0.5)': {
        1: [0.20962229, 0.0028506219, 0.35531893, 0.32000488,
            0.28591663, 0.56857157, 0.57973176, -0.61960399],
        10: [0.58231705, -0.9406538, 0.47263455, 0.37566543,
             -0.9433409, 0.24016598, 0.607122, -0.83858424],
        60: [0.8093487, -1.4709665, 0.48385724, 0.75418496,
             -0.97679895, 0.23239209, 0.29348835, -0.48192647],
        100: [0.80976593, -1.4718364, 0.48379764, 0.75463319,
              -0.97683948, 0.23241533, 0.29301986, -0.48123235],
    },
}
KERAS_GOLDEN = {
    'SGD(0.05)': {
        1: [0.15481114, 0.10142531, 0.32765949, 0.36000246,
            0.39295831, 0.5842858, 0.53986585, -0.559802],
        10: [0.42202726, -0.43981609, 0.44650149, 0.22045158,
             -0.26726162, 0.45167899, 0.69361055, -0.82524264],
        60: [0.68394452, -1.1844617, 0.48510069, 0.57066977,
             -0.94353378, 0.23852777, 0.45374081, -0.67670786],
        100: [0.80683726, -1.4618089, 0.48080921, 0.74282789,
              -0.97485691, 0.23386894, 0.29958525, -0.48331466],
    },
    'SGD(0.05, momentum=0.9, nesterov=True, decay=0.01)': {
        1: [0.20414117, 0.012708083, 0.35255301, 0.32400465,
            0.29662079, 0.57014298, 0.57574517, -0.6136238],
        10: [0.70349568, -1.300843, 0.49702811, 0.43830338,
             -1.4716001, 0.082403839, 0.58392227, -0.89149988],
        60: [1.1329136, -2.1009963, 0.3935059, 0.99884713,
             -0.99776214, 0.26631129, -0.032518134, 0.093503244],
        100: [1.0970941, -2.0368257, 0.40862748, 0.9829002,
              -0.99971133, 0.25980315, 4.6995207e-05, 0.024181535],
    },
    'Adam(0.05)': {
        1: [0.14999986, 0.15000008, 0.34999973, 0.3500002,
            0.45000008, 0.55000055, 0.54999983, -0.54999989],
        10: [0.52934903, -0.279082, 0.65706164, -0.030621901,
             0.0090796612, 0.20928049, 0.89586449, -0.96701258],
        60: [0.95418739, -1.370052, 0.48167956, 0.77342576,
             -1.0499457, 0.21729608, 0.070657052, -0.6356588],
        100: [1.1154869, -1.8292662, 0.39737046, 0.90651065,
              -0.99265563, 0.2512542, -0.010866799, -0.16006888],
    },
    'Adam(0.05, amsgrad=True)': {
        1: [0.14999986, 0.15000008, 0.34999973, 0.3500002,
            0.45000008, 0.55000055, 0.54999983, -0.54999989],
        10: [0.52932906, -0.279082, 0.65706199, -0.030605955,
             0.0090796612, 0.20928466, 0.89586484, -0.96701264],
        60: [0.95369542, -1.3696042, 0.48189369, 0.7733106,
             -1.0497361, 0.21718904, 0.071218111, -0.63607961],
        100: [1.1151326, -1.8273531, 0.39758813, 0.90550351,
              -0.99265242, 0.25115073, -0.010294968, -0.16165742],
    },
    'RMSprop(0.01)': {
        1: [0.13162276, 0.16837724, 0.33162278, 0.36837724,
            0.46837723, 0.56837726, 0.53162277, -0.53162277],
        10: [0.25686467, 0.034466095, 0.44859505, 0.24287356,
             0.33094752, 0.44779012, 0.65283561, -0.66287225],
        60: [0.59398991, -0.40287769, 0.43660158, 0.19262128,
             -0.14662434, 0.25210068, 0.68041241, -1.0184649],
        100: [0.88712299, -0.75569367, 0.3877373, 0.49791446,
              -0.50075614, 0.22219382, 0.33842134, -0.96026373],
    },
    'RMSprop(0.01, momentum=0.5, centered=True)': {
        1: [0.13333331, 0.16666669, 0.33333328, 0.3666667,
            0.46666667, 0.5666669, 0.5333333, -0.5333333],
        10: [0.40418574, -0.1613425, 0.54421425, 0.10089132,
             0.1165441, 0.32446074, 0.7726053, -0.84196401],
        60: [1.0104915, -1.4528811, 0.42778501, 0.79109681,
             -0.97135532, 0.23212534, 0.093168646, -0.50302613],
        100: [1.1018553, -2.0309196, 0.40837899, 0.98179781,
              -0.99977106, 0.25766933, -0.0015577301, 0.018937318],
    },
    'RMSprop(0.01, centered=True)': {
        1: [0.13333333, 0.16666669, 0.33333331, 0.3666667,
            0.46666667, 0.56666672, 0.5333333, -0.5333333],
        10: [0.29338628, -0.010178287, 0.47629392, 0.20675647,
             0.28321749, 0.41563225, 0.68490434, -0.70489192],
        60: [0.74781871, -0.92202395, 0.45679331, 0.50768304,
             -0.77971941, 0.22379392, 0.4176015, -0.88266242],
        100: [1.0841516, -1.7512449, 0.41513798, 0.88410169,
              -0.99403971, 0.24697433, 0.015974032, -0.2228802],
    },
    'Adagrad(0.3)': {
        1: [0.38824639, -0.096213683, 0.56044865, 0.12100801,
            0.20322022, 0.38852274, 0.77886736, -0.79003382],
        10: [0.64452577, -0.72004277, 0.45349264, 0.38351014,
             -0.60265374, 0.22951485, 0.57016397, -0.97789586],
        60: [1.0607954, -1.6816871, 0.41930401, 0.86411905,
             -0.99362391, 0.24417461, 0.035458166, -0.28810528],
        100: [1.0952526, -1.9076382, 0.40956512, 0.9402675,
              -0.9988507, 0.25422201, 0.0015990034, -0.089593932],
    },
    'Adadelta(1.0)': {
        1: [0.10141421, 0.19858579, 0.30141422, 0.3985858,
            0.49858579, 0.59858584, 0.50141424, -0.50141424],
        10: [0.11440667, 0.18550108, 0.31433675, 0.38558522,
             0.48545942, 0.58563924, 0.51437271, -0.51447111],
        60: [0.18268962, 0.11286324, 0.37925124, 0.31712422,
             0.41077933, 0.51937103, 0.58095235, -0.58569556],
        100: [0.2308268, 0.056976002, 0.42125058, 0.2691668,
              0.35107374, 0.4745113, 0.62583202, -0.63883096],
    },
    'Adamax(0.05)': {
        1: [0.15000001, 0.15000001, 0.34999999, 0.35000002,
            0.44999999, 0.55000001, 0.55000001, -0.55000001],
        10: [0.44850317, -0.21789207, 0.59516013, 0.052719936,
             0.047303557, 0.28014171, 0.82015175, -0.89320487],
        60: [0.66576236, -0.85844749, 0.46428382, 0.53104931,
             -0.89533544, 0.21952932, 0.49340302, -0.93923402],
        100: [0.81220847, -1.1643025, 0.4896476, 0.68424475,
              -0.97499448, 0.21840659, 0.27293116, -0.75844216],
    },
    'Nadam(0.05)': {
        1: [0.15282258, 0.14717741, 0.3528226, 0.34717742,
            0.44717741, 0.54717743, 0.55282259, -0.55282259],
        10: [0.41032812, -0.16116315, 0.55266947, 0.095043465,
             0.11883637, 0.31624538, 0.7805028, -0.8437776],
        60: [0.92621332, -1.2146519, 0.45420077, 0.72312236,
             -0.96744877, 0.22085845, 0.17035453, -0.71624815],
        100: [1.0885928, -1.6985691, 0.41217485, 0.87272286,
              -1.0002983, 0.24444462, 0.007005997, -0.27724472],
    },
    'SGD(tf.keras.optimizers.schedules.ExponentialDecay(0.1, 10, 0.5))': {
        1: [0.20962229, 0.0028506219, 0.35531893, 0.32000488,
            0.28591663, 0.56857157, 0.57973176, -0.61960399],
        10: [0.48602346, -0.60214061, 0.46653503, 0.22554632,
             -0.48648381, 0.39313132, 0.70184869, -0.86708826],
        60: [0.56774986, -0.86085528, 0.47728765, 0.34131372,
             -0.7860505, 0.29538327, 0.62761086, -0.83758765],
        100: [0.56959838, -0.86676902, 0.47742671, 0.34517425,
              -0.79109919, 0.2935808, 0.62488371, -0.83560449],
    },
}
SCHEDULE_STEPS = [0, 1, 5, 6, 12, 13, 25]
SCHEDULE_GOLDEN = {
    'exponential_decay(0.1, gs, 7, 0.8)':
        [0.1, 0.09686251, 0.085266523, 0.082591295,
         0.068213217, 0.066073038, 0.045070548],
    'exponential_decay(0.1, gs, 7, 0.8, staircase=True)':
        [0.1, 0.1, 0.1, 0.1,
         0.080000006, 0.080000006, 0.051200002],
    'piecewise_constant(gs, [5, 12], [1.0, 0.5, 0.1])':
        [1, 1, 1, 0.5,
         0.5, 0.1, 0.1],
    'polynomial_decay(0.1, gs, 10, 0.01, power=2.0)':
        [0.1, 0.082899995, 0.032499999, 0.0244,
         0.0099999998, 0.0099999998, 0.0099999998],
    'polynomial_decay(0.1, gs, 10, cycle=True)':
        [0.1, 0.090010002, 0.050050002, 0.040059999,
         0.040059999, 0.035065003, 0.016750002],
    'cosine_decay(0.1, gs, 15, alpha=0.1)':
        [0.1, 0.099016644, 0.077500001, 0.068905763,
         0.018594233, 0.013890453, 0.010000001],
    'inverse_time_decay(0.1, gs, 5, 0.5)':
        [0.1, 0.090909094, 0.06666667, 0.0625,
         0.045454547, 0.043478262, 0.028571429],
    'inverse_time_decay(0.1, gs, 5, 0.5, staircase=True)':
        [0.1, 0.1, 0.06666667, 0.06666667,
         0.050000001, 0.050000001, 0.028571429],
    'natural_exp_decay(0.1, gs, 5, 0.5)':
        [0.1, 0.090483747, 0.060653068, 0.054881163,
         0.030119419, 0.027253181, 0.0082085012],
    'cosine_decay_restarts(0.1, gs, 4)':
        [0.1, 0.085355341, 0.096193977, 0.085355341,
         0.1, 0.099039264, 0.0084265172],
    'cosine_decay_restarts(0.1, gs, 4, t_mul=1.0, m_mul=0.5)':
        [0.1, 0.085355341, 0.042677671, 0.024999999,
         0.0125, 0.010669418, 0.0013336772],
    'linear_cosine_decay(0.1, gs, 20)':
        [0.1001, 0.094515197, 0.064116508, 0.055672478,
         0.013919658, 0.0096551683, 0.0001],
}


def _train(make, use_global_step=False, steps=100):
  """Trains w, b on the least-squares problem; returns {step: flattened values}."""
  w, b = tf.Variable(W0, name="w"), tf.Variable(B0, name="b")
  gs = tf.Variable(0, dtype=tf.int64, name="gs")
  opt = make(gs)
  out = {}
  for i in range(1, steps + 1):
    with tf.GradientTape() as tape:
      loss = tf.reduce_mean(tf.square(tf.matmul(X, w) + b - Y))
    grads = tape.gradient(loss, [w, b])
    if use_global_step:
      opt.apply_gradients(zip(grads, [w, b]), global_step=gs)
    else:
      opt.apply_gradients(zip(grads, [w, b]))
    if i in (1, 10, 60, 100):
      out[i] = np.concatenate([w.numpy().ravel(), b.numpy()])
  if use_global_step:
    assert int(gs) == steps
  return out


def _check(got, golden, steps=(1, 10, 60, 100)):
  for step in steps:
    np.testing.assert_allclose(got[step], golden[step], rtol=1e-5, atol=1e-6,
                               err_msg="after %d steps" % step)


@pytest.mark.parametrize("config", sorted(TF1_GOLDEN))
def test_tf1_optimizers_match_tf(config):
  _check(_train(eval("lambda gs: tf.train." + config)), TF1_GOLDEN[config])


@pytest.mark.parametrize("config", sorted(TF1_GS_GOLDEN))
def test_tf1_schedule_learning_rates_match_tf(config):
  _check(_train(eval("lambda gs: tf.train." + config), use_global_step=True),
         TF1_GS_GOLDEN[config])


@pytest.mark.parametrize("config", sorted(KERAS_GOLDEN))
def test_keras_optimizers_match_tf(config):
  make = eval("lambda gs: tf.keras.optimizers." + config)
  # RMSprop's sign-like steps amplify last-ulp gradient differences near the optimum after
  # ~85 steps (its update, fed TF's own gradients, matches to 1e-7 all the way): stop at 60.
  _check(_train(make), KERAS_GOLDEN[config],
         steps=(1, 10, 60) if config.startswith("RMSprop") else (1, 10, 60, 100))


@pytest.mark.parametrize("config", sorted(SCHEDULE_GOLDEN))
def test_schedules_match_tf(config):
  gs = tf.Variable(0, dtype=tf.int64)
  decayed = eval("tf.train." + config)
  assert callable(decayed)
  values = []
  for step in SCHEDULE_STEPS:
    gs.assign(step)
    value = decayed()
    assert value.dtype == tf.float32
    values.append(value.numpy())
  np.testing.assert_allclose(values, SCHEDULE_GOLDEN[config], rtol=1e-6, atol=1e-9)


def test_keras_schedule_objects():
  schedule = tf.keras.optimizers.schedules.PiecewiseConstantDecay([5, 12], [1.0, 0.5, 0.1])
  assert [float(schedule(s)) for s in (0, 5, 6, 12, 13)] == [1.0, 1.0, 0.5, 0.5,
                                                               np.float32(0.1)]
  config = tf.keras.optimizers.schedules.serialize(
      tf.keras.optimizers.schedules.ExponentialDecay(0.1, 10, 0.5))
  assert config == {"class_name": "ExponentialDecay",
                    "config": {"initial_learning_rate": 0.1, "decay_steps": 10,
                               "decay_rate": 0.5, "staircase": False, "name": None}}
  restored = tf.keras.optimizers.schedules.deserialize(config)
  np.testing.assert_allclose(restored(20).numpy(), 0.025, rtol=1e-6)
  with pytest.raises(ValueError, match="1 less than the length of values"):
    tf.train.piecewise_constant(tf.Variable(0), [1, 2], [0.1, 0.2])


# ---- Slots, names, variables ----
def _two_variables():
  return tf.Variable([1.0, 2.0], name="x"), tf.Variable(3.0, name="y")


def _grads():
  return [tf.constant([1.0, 1.0]), tf.constant(1.0)]


def test_slot_names_and_variables_tf1():
  x, y = _two_variables()
  opt = tf.train.AdamOptimizer(0.1)
  assert opt.apply_gradients(zip(_grads(), [x, y])) is None
  assert [v.name for v in opt.variables()] == [
      "beta1_power:0", "beta2_power:0", "x/Adam:0", "x/Adam_1:0", "y/Adam:0", "y/Adam_1:0"]
  assert tf.contrib.eager.get_optimizer_variables(opt) == opt.variables()
  assert opt.get_slot_names() == ["m", "v"]
  m = opt.get_slot(x, "m")
  assert m.name == "x/Adam:0" and not m.trainable and m.dtype == tf.float32
  np.testing.assert_allclose(m.numpy(), [0.1, 0.1], rtol=1e-6)
  np.testing.assert_allclose(opt.get_slot(x, "v").numpy(), [0.0009999871] * 2, rtol=1e-7)
  assert opt.get_slot(x, "nope") is None
  assert opt.get_slot(tf.Variable(1.0), "m") is None
  beta1_power, beta2_power = opt._get_beta_accumulators()
  np.testing.assert_allclose([beta1_power.numpy(), beta2_power.numpy()], [0.81, 0.998001],
                             rtol=1e-6)
  # A second optimizer's slots are uniquified like TF's variable scopes.
  other = tf.train.AdamOptimizer(0.1)
  other.apply_gradients(zip(_grads(), [x, y]))
  assert [v.name for v in other.variables()][2:4] == ["x/Adam_2:0", "x/Adam_3:0"]


@pytest.mark.parametrize("make, names, slot_names", [
    (lambda: tf.train.MomentumOptimizer(0.1, 0.9), ["x/Momentum:0"], ["momentum"]),
    (lambda: tf.train.AdagradOptimizer(0.1), ["x/Adagrad:0"], ["accumulator"]),
    (lambda: tf.train.AdadeltaOptimizer(0.1), ["x/Adadelta:0", "x/Adadelta_1:0"],
     ["accum", "accum_update"]),
    (lambda: tf.train.RMSPropOptimizer(0.1, momentum=0.5, centered=True),
     ["x/RMSProp:0", "x/RMSProp_1:0", "x/RMSProp_2:0"], ["mg", "momentum", "rms"]),
    (lambda: tf.train.FtrlOptimizer(0.1), ["x/Ftrl:0", "x/Ftrl_1:0"], ["accum", "linear"]),
    (lambda: tf.train.GradientDescentOptimizer(0.1), [], []),
])
def test_slot_names_tf1(make, names, slot_names):
  x = tf.Variable([1.0, 2.0], name="x")
  opt = make()
  opt.apply_gradients([(tf.constant([1.0, 1.0]), x)])
  assert [v.name for v in opt.variables()] == names
  assert opt.get_slot_names() == slot_names


def test_rmsprop_tf1_slot_values():
  x = tf.Variable([1.0, 2.0], name="x")
  opt = tf.train.RMSPropOptimizer(0.1, momentum=0.5, centered=True)
  opt.apply_gradients([(tf.constant([1.0, 1.0]), x)])
  np.testing.assert_allclose(opt.get_slot(x, "rms").numpy(), [1.0, 1.0])  # starts at ones
  np.testing.assert_allclose(opt.get_slot(x, "mg").numpy(), [0.1, 0.1], rtol=1e-6)
  np.testing.assert_allclose(opt.get_slot(x, "momentum").numpy(), [0.10050379] * 2, rtol=1e-6)


def test_slot_names_follow_name_scope():
  with tf.name_scope("outer"):
    z = tf.Variable(1.0, name="z")
    opt = tf.train.MomentumOptimizer(0.1, 0.9)
    opt.apply_gradients([(tf.constant(1.0), z)])
  assert [v.name for v in opt.variables()] == ["outer/z/Momentum:0"]


def test_float64_variables_keep_float32_beta_powers():
  d = tf.Variable([1.0, 2.0], dtype=tf.float64, name="d")
  opt = tf.train.AdamOptimizer(0.1)
  opt.apply_gradients([(tf.constant([1.0, 1.0], tf.float64), d)])
  np.testing.assert_allclose(d.numpy(), [0.9000000301328543, 1.9000000301328543], rtol=1e-12)
  assert [v.dtype for v in opt.variables()] == [tf.float32, tf.float32, tf.float64, tf.float64]


# ---- apply_gradients / minimize semantics ----
def test_global_step():
  training_util.reset_global_step()
  assert tf.train.get_global_step() is None
  gs = tf.train.get_or_create_global_step()
  assert gs.name == "global_step:0" and gs.dtype == tf.int64 and not gs.trainable
  assert tf.train.get_or_create_global_step() is gs and tf.train.get_global_step() is gs
  with pytest.raises(ValueError, match='"global_step" already exists.'):
    tf.train.create_global_step()
  x = tf.Variable(1.0)
  opt = tf.train.GradientDescentOptimizer(0.5)
  for _ in range(3):
    opt.apply_gradients([(tf.constant(1.0), x)], global_step=gs)
  assert tf.train.global_step(None, gs) == 3 and gs.numpy() == 3
  assert float(x) == -0.5
  counter = tf.Variable(10)  # an int32 step counter also counts
  opt.apply_gradients([(tf.constant(1.0), x)], global_step=counter)
  assert int(counter) == 11 and counter.dtype == tf.int32
  training_util.reset_global_step()


def test_none_gradients_are_skipped_and_errors():
  x, y = _two_variables()
  opt = tf.train.AdamOptimizer(0.1)
  opt.apply_gradients([(tf.constant([1.0, 1.0]), x), (None, y)])
  assert float(y) == 3.0 and opt.get_slot(y, "m") is None
  np.testing.assert_allclose(x.numpy(), [0.9, 1.9], rtol=1e-6)
  with pytest.raises(ValueError, match=r"^No variables provided\.$"):
    opt.apply_gradients([])
  with pytest.raises(ValueError) as info:
    opt.apply_gradients([(None, x), (None, y)])
  assert str(info.value) == "No gradients provided for any variable: [%r, %r]." % (
      str(x), str(y))
  with pytest.raises(tf.errors.InvalidArgumentError,
                     match=r"var and grad do not have the same shape\[2\] \[3\] "
                           r"\[Op:ResourceApplyAdam\]"):
    opt.apply_gradients([(tf.constant([1.0, 2.0, 3.0]), x)])
  with pytest.raises(tf.errors.InvalidArgumentError, match=r"var and delta .*GradientDescent"):
    tf.train.GradientDescentOptimizer(0.1).apply_gradients([(tf.constant([1.0, 2.0, 3.0]), x)])
  with pytest.raises(NotImplementedError, match="Trying to update a Tensor"):
    tf.train.GradientDescentOptimizer(0.1).apply_gradients([(tf.constant(1.0),
                                                             tf.constant(2.0))])


def test_learning_rate_kinds():
  x = tf.Variable([1.0, 2.0])
  tf.train.GradientDescentOptimizer(tf.constant(0.5)).apply_gradients([(tf.ones([2]), x)])
  np.testing.assert_allclose(x.numpy(), [0.5, 1.5])
  lr = tf.Variable(0.25)
  opt = tf.train.GradientDescentOptimizer(lambda: lr * 2)  # called on every apply
  opt.apply_gradients([(tf.ones([2]), x)])
  np.testing.assert_allclose(x.numpy(), [0.0, 1.0])
  lr.assign(0.5)
  opt.apply_gradients([(tf.ones([2]), x)])
  np.testing.assert_allclose(x.numpy(), [-1.0, 0.0])
  opt = tf.train.GradientDescentOptimizer(lr)  # a Variable is read on every apply
  lr.assign(1.0)
  opt.apply_gradients([(tf.ones([2]), x)])
  np.testing.assert_allclose(x.numpy(), [-2.0, -1.0])
  opt._learning_rate = 2.0  # TF1 code sometimes sets the attribute
  opt.apply_gradients([(tf.ones([2]), x)])
  np.testing.assert_allclose(x.numpy(), [-4.0, -3.0])


def test_minimize_with_callable_loss():
  x = tf.Variable([1.0, 2.0])
  frozen = tf.Variable(5.0, trainable=False)
  opt = tf.train.GradientDescentOptimizer(0.1)
  grads_and_vars = opt.compute_gradients(lambda: tf.reduce_sum(x * x) * frozen)
  assert [v for _, v in grads_and_vars] == [x]  # only trainable variables read by the loss
  np.testing.assert_allclose(grads_and_vars[0][0].numpy(), [10.0, 20.0])
  gs = tf.Variable(0, dtype=tf.int64)
  assert opt.minimize(lambda: tf.reduce_sum(x * x), global_step=gs) is None
  np.testing.assert_allclose(x.numpy(), [0.8, 1.6], rtol=1e-6)
  assert int(gs) == 1
  opt.minimize(lambda: frozen * 2.0, var_list=[frozen])  # an explicit var_list is watched
  np.testing.assert_allclose(frozen.numpy(), 4.8, rtol=1e-6)
  with pytest.raises(RuntimeError, match="should be a function when eager execution"):
    opt.minimize(tf.constant(1.0))
  with pytest.raises(ValueError, match="No gradients provided for any variable, check your "
                                       "graph for ops that do not support gradients"):
    opt.minimize(lambda: tf.constant(1.0), var_list=[x])


def test_implicit_gradients_pairs_and_constraint():
  x = tf.Variable([5.0, -5.0], constraint=lambda v: tf.clip_by_value(v, -1.0, 1.0))
  grads = tf.contrib.eager.implicit_gradients(lambda: tf.reduce_sum(x * x))()
  tf.train.GradientDescentOptimizer(0.1).apply_gradients(grads)
  np.testing.assert_allclose(x.numpy(), [1.0, -1.0])


def test_custom_optimizer_subclass():
  class SignSGD(tf.train.Optimizer):
    def __init__(self, lr):
      super().__init__(False, "SignSGD")
      self._lr = lr

    def _create_slots(self, var_list):
      for v in var_list:
        self._zeros_slot(v, "count", self._name)

    def _resource_apply_dense(self, grad, var):
      self.get_slot(var, "count").assign_add(tf.ones_like(var))
      return var.assign_sub(self._lr * tf.sign(grad))

  x = tf.Variable([1.0, -2.0], name="s")
  gs = tf.Variable(0, dtype=tf.int64)
  opt = SignSGD(0.5)
  opt.minimize(lambda: tf.reduce_sum(x * x), global_step=gs)
  opt.minimize(lambda: tf.reduce_sum(x * x), global_step=gs)
  np.testing.assert_allclose(x.numpy(), [0.0, -1.0])
  assert [v.name for v in opt.variables()] == ["s/SignSGD:0"] and int(gs) == 2
  np.testing.assert_allclose(opt.get_slot(x, "count").numpy(), [2.0, 2.0])
  with pytest.raises(ValueError, match="Must specify the optimizer name"):
    tf.train.Optimizer(False, "")


def test_update_is_one_jitted_call_per_structure():
  x, y = tf.Variable(np.ones((3, 7), np.float32)), tf.Variable(np.ones(7, np.float32))
  opt = tf.train.AdamOptimizer(0.1)
  opt.apply_gradients([(tf.ones((3, 7)), x), (tf.ones(7), y)])
  update = optimizer_base.jitted_update(*opt._update_rule())
  compiled = update._cache_size()
  for _ in range(3):
    opt.apply_gradients([(tf.ones((3, 7)), x), (tf.ones(7), y)])
  assert update._cache_size() == compiled  # no retrace: one compiled update per structure
  tf.train.AdamOptimizer(0.2).apply_gradients([(tf.ones((3, 7)), x), (tf.ones(7), y)])
  assert update._cache_size() == compiled  # shared by optimizers of the same kind


# ---- Keras optimizers ----
def test_keras_names_iterations_and_hypers():
  x, y = _two_variables()
  opt = tf.keras.optimizers.Adam(0.1)
  assert opt.lr.name == "learning_rate:0" and opt.learning_rate is opt.lr
  assert opt.iterations.name == "iter:0" and opt.iterations.dtype == tf.int64
  opt.apply_gradients(zip(_grads(), [x, y]))
  assert [v.name for v in opt.weights] == ["iter:0", "Adam/x/m:0", "Adam/y/m:0",
                                           "Adam/x/v:0", "Adam/y/v:0"]
  assert opt.get_slot_names() == ["m", "v"] and int(opt.iterations) == 1
  np.testing.assert_allclose(opt.get_slot(x, "m").numpy(), [0.1, 0.1], rtol=1e-6)
  opt.lr = 0.5
  assert isinstance(opt.lr, tf.Variable) and float(opt.lr) == 0.5
  opt.learning_rate.assign(0.25)
  assert float(opt.lr) == 0.25
  assert opt.get_config() == {"name": "Adam", "learning_rate": np.float32(0.25), "decay": 0.0,
                              "beta_1": np.float32(0.9), "beta_2": np.float32(0.999),
                              "epsilon": 1e-07, "amsgrad": False}
  opt.apply_gradients([(tf.constant([1.0, 1.0]), x), (None, y)])
  assert int(opt.iterations) == 2
  assert opt.apply_gradients([]) is None and int(opt.iterations) == 2
  with pytest.raises(ValueError, match=r"No gradients provided for any variable: "
                                       r"\['x:0', 'y:0'\]\."):
    opt.apply_gradients([(None, x), (None, y)])
  with pytest.raises(KeyError):
    opt.get_slot(x, "vhat")
  new = tf.keras.optimizers.Adam.from_config(opt.get_config())
  assert isinstance(new, tf.keras.optimizers.Adam) and float(new.lr) == 0.25


@pytest.mark.parametrize("name, cls, names", [
    ("sgd", "SGD", ["SGD/iter:0"]),
    ("rmsprop", "RMSprop", ["RMSprop/iter:0", "RMSprop/x/rms:0"]),
    ("adagrad", "Adagrad", ["Adagrad/iter:0", "Adagrad/x/accumulator:0"]),
    ("adadelta", "Adadelta", ["Adadelta/iter:0", "Adadelta/x/accum_grad:0",
                              "Adadelta/x/accum_var:0"]),
    ("adamax", "Adamax", ["Adamax/iter:0", "Adamax/x/m:0", "Adamax/x/v:0"]),
    ("Nadam", "Nadam", ["Nadam/iter:0", "Nadam/momentum_cache:0", "Nadam/x/m:0",
                        "Nadam/x/v:0"]),
])
def test_keras_get_and_slot_names(name, cls, names):
  opt = tf.keras.optimizers.get(name)
  assert type(opt).__name__ == cls and opt.get_config()["name"] == cls
  x = tf.Variable([1.0, 2.0], name="x")
  opt.minimize(lambda: tf.reduce_sum(x * x), var_list=[x])
  assert [v.name for v in opt.variables()] == names
  assert tf.keras.optimizers.get(opt) is opt


def test_keras_get_errors_and_config():
  with pytest.raises(ValueError, match="Unknown optimizer: nope"):
    tf.keras.optimizers.get("nope")
  tf1 = tf.train.AdamOptimizer()
  assert tf.keras.optimizers.get(tf1) is tf1
  assert tf.keras.optimizers.get("sgd").get_config() == {
      "name": "SGD", "learning_rate": 0.01, "decay": 0.0, "momentum": 0.0, "nesterov": False}
  assert tf.keras.optimizers.SGD(lr=0.3).get_config()["learning_rate"] == 0.3
  with pytest.raises(TypeError, match="Unexpected keyword argument passed to optimizer: foo"):
    tf.keras.optimizers.SGD(foo=1)
  sgd = tf.keras.optimizers.SGD(learning_rate="a")  # refused when its variables are made
  with pytest.raises(ValueError, match="Unknown initializer: 'a'. Please ensure"):
    sgd.apply_gradients([(tf.ones([2]), tf.Variable(tf.ones([2])))])


def test_keras_clipnorm_and_callable_var_list():
  x = tf.Variable([3.0, 4.0])
  opt = tf.keras.optimizers.SGD(1.0, clipnorm=1.0)
  opt.minimize(lambda: tf.reduce_sum(x * x) / 2, var_list=lambda: [x])
  np.testing.assert_allclose(x.numpy(), [2.4, 3.2], rtol=1e-6)
  assert opt.get_config()["clipnorm"] == 1.0


def test_reset_default_graph_forgets_the_global_step():
  step = tf.train.get_or_create_global_step()
  step.assign_add(3)
  tf.reset_default_graph()
  assert tf.train.get_global_step() is None
  fresh = tf.train.get_or_create_global_step()
  assert fresh is not step and int(fresh) == 0


def test_exponential_moving_average():
  """Golden values, names and errors from TF 2.21 (tf.compat.v1, eager)."""
  v, w = tf.Variable([1., 2.], name="v"), tf.Variable(3., name="scope/w")
  step = tf.Variable(0, dtype=tf.int64)
  ema = tf.train.ExponentialMovingAverage(0.9, num_updates=step)
  assert ema.apply([v, w]) is None and ema.name == "ExponentialMovingAverage"
  shadow = ema.average(v)
  assert shadow.name == "v/ExponentialMovingAverage:0" and not shadow.trainable
  assert shadow.numpy().tolist() == [1., 2.]
  v.assign([3., 6.])
  w.assign(5.)
  ema.apply([v, w])  # decay min(0.9, 1/10)
  np.testing.assert_allclose(shadow.numpy(), [2.8, 5.6], rtol=1e-6)
  np.testing.assert_allclose(ema.average(w).numpy(), 4.8, rtol=1e-6)
  step.assign(100)
  v.assign([13., 16.])
  ema.apply([v])  # decay min(0.9, 101/110)
  np.testing.assert_allclose(shadow.numpy(), [3.82, 6.64], rtol=1e-6)
  assert ema.average_name(w) == "scope/w/ExponentialMovingAverage"
  assert ema.average(tf.Variable(1.)) is None
  assert list(ema.variables_to_restore([v])) == ["v/ExponentialMovingAverage"]
  with pytest.raises(TypeError, match="does not support non-Variable tensors"):
    ema.apply([tf.constant(1.)])
  with pytest.raises(TypeError, match="The variables must be half, float, or double"):
    ema.apply([tf.Variable(1)])
  plain = tf.train.ExponentialMovingAverage(0.5)
  plain.apply([v])
  v.assign([1., 1.])
  plain.apply([v])
  assert plain.average(v).numpy().tolist() == [7., 8.5]


def test_a_variable_given_twice_is_updated_twice_as_tf():
  """TF 2.21's values: the updates apply in order; shared state advances once."""
  def twice(optimizer):
    v = tf.Variable([1.0, 2.0])
    optimizer.apply_gradients([(tf.constant([1.0, 1.0]), v), (tf.constant([2.0, 2.0]), v)])
    return v
  np.testing.assert_allclose(twice(tf.train.GradientDescentOptimizer(0.1)).numpy(),
                             [0.7, 1.7], rtol=1e-6)
  np.testing.assert_allclose(twice(tf.keras.optimizers.SGD(0.1)).numpy(), [0.7, 1.7],
                             rtol=1e-6)
  momentum = tf.train.MomentumOptimizer(0.1, 0.9)
  v = twice(momentum)
  np.testing.assert_allclose(v.numpy(), [0.61, 1.61], rtol=1e-6)
  np.testing.assert_allclose(momentum.get_slot(v, "momentum").numpy(), [2.9, 2.9], rtol=1e-6)
  np.testing.assert_allclose(twice(tf.train.AdamOptimizer(0.1)).numpy(),
                             [0.77029514, 1.7702951], rtol=1e-6)
  assert tf.clip_by_norm(tf.constant([3.0, 4.0]), -1.0).numpy().tolist() == [0.0, 0.0]
