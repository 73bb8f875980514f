#pragma once
// Locale-independent number parsing (std::from_chars): "1.5" is 1.5 whatever LC_NUMERIC says.
// All functions reject trailing garbage and non-finite values.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/NumberFormat.h"  // the matching writers (formatDouble, ...)

namespace sg {

std::optional<double> parseDouble(std::string_view text);  // finite only; leading/trailing blanks allowed
std::optional<int> parseInt(std::string_view text);
// Whitespace-separated finite numbers; nullopt if any token is not a finite number.
std::optional<std::vector<double>> parseDoubleList(std::string_view text);
std::vector<std::string_view> splitWhitespace(std::string_view text);
std::string_view trim(std::string_view text);

}  // namespace sg
