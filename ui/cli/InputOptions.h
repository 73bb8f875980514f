#pragma once
// Loading the input file a subcommand is given: a world, robot or body XML, or a bare mesh (src/io/InputFile.h,
// the rule the application follows too). Every kind is wrapped into a World, so commands can treat them alike.
// Errors are sg::Error naming the file (and the XML line when known); main() reports them on one line with exit
// code 3.
#include <string>

#include "OptionParser.h"
#include "io/InputFile.h"

namespace sg::cli {

// The engine's one rule for opening a file (src/io/InputFile.h), the application's too.
using sg::InputFile;
using sg::loadInputFile;

// The LoadOptions the shared --model-root option asks for.
LoadOptions loadOptionsFrom(const ParsedArgs& args);

// A robot XML only (anything else is an sg::Error naming the file); `path` is found as loadInputFile finds it.
Robot loadRobotFile(const std::string& path, const LoadOptions& options);

}  // namespace sg::cli
