#pragma once
// Locale-independent number text (std::to_chars): what every file, CSV, JSON and report the project writes
// holds, whatever the process locale (QApplication calls setlocale(LC_ALL, ""), so printf-family formatting would
// write "17,4" under de_DE.UTF-8). The matching parser is core/Parse.h (std::from_chars).
#include <string>

namespace sg {

// Shortest text that reads back to the same double: "0.1", "17.40196777757846", "1e-300", "-0".
// Non-finite values give "inf", "-inf" or "nan" (callers that write JSON map them to null first).
std::string formatDouble(double value);
// As formatDouble with an explicit sign, GraspIt!-style ("+1.5", "-0.25"); zero (also -0) is "+0".
std::string formatSigned(double value);
// printf's "%.<digits>g" as the C locale prints it: for labels and messages that round on purpose.
std::string formatGeneral(double value, int significantDigits);
// printf's "%.<decimals>f" as the C locale prints it.
std::string formatFixed(double value, int decimals);

}  // namespace sg
