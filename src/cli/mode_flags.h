// A mode's typed options (plan/mode_fields.h) as its command's flags: one `--NAME` per field,
// with its help, default and requirement as the options struct declares them. A suite's block
// fills the same struct from YAML (plan/suite_modes.h).
#pragma once

#include <string>

#include <CLI/CLI.hpp>

#include "plan/mode_fields.h"

namespace edgebench {

template <typename Options>
void AddModeFlags(CLI::App* cmd, Options& options) {
  options.Fields([cmd](const ModeField& field, auto& value) {
    const std::string names = (field.short_flag ? std::string(field.short_flag) + "," : std::string()) + "--" +
                              field.name;
    CLI::Option* option = cmd->add_option(names, value, field.help);
    if (field.flags & kFieldRequired) option->required();
    if (field.flags & kFieldShowDefault) option->capture_default_str();
  });
}

}  // namespace edgebench
