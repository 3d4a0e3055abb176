// SPDX-License-Identifier: MIT
#pragma once
// The model_type tables of the config reader: for each family the config keys it spells its
// shape with, their defaults, and the HfBlock knobs that apply; and the generic decoder for a
// model_type no table knows. Internal to HfConfig.cpp.
#include <string>
#include <vector>

#include "costmodel/HfKeys.h"

namespace memviz::costmodel::hf {

// Reads m (m.modelType and m.architecture set) with the table of its model_type; false when no
// table knows it.
bool readWithTable(const Keys& k, HfModel& m);
// A config no table knows, read as a Llama-style decoder from the keys most families share;
// adds one warning saying what was assumed. Throws HfConfigError when the common keys are absent.
void readGenericDecoder(const Keys& k, HfModel& m);
std::vector<std::string> tableModelTypes();

} // namespace memviz::costmodel::hf
