// The text scan and include walk behind readInventorMesh (InventorGuard.h).
#include "io/InventorGuard.h"

#include <sys/stat.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <set>

#include "core/Error.h"
#include "io/MeshReaderSupport.h"

namespace sg::meshio {

namespace {

enum class TokenKind { Word, String, Open, Close, End };

struct Token {
  TokenKind kind = TokenKind::End;
  std::string text;  // word text, string contents, or the bracket character
  int line = 1;
};

// Inventor/VRML tokens: '#' comments, "strings" with backslash escapes, { } [ ] and words; commas are blanks.
class Tokenizer {
 public:
  explicit Tokenizer(const std::string& text) : text_(text) {}

  Token next() {
    for (;;) {
      if (pos_ >= text_.size()) return {TokenKind::End, {}, line_};
      const char c = text_[pos_];
      if (c == '\n') {
        ++line_;
        ++pos_;
      } else if (std::isspace(static_cast<unsigned char>(c)) || c == ',') {
        ++pos_;
      } else if (c == '#') {
        while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
      } else {
        break;
      }
    }
    const char c = text_[pos_];
    const int line = line_;
    if (c == '{' || c == '[') return {TokenKind::Open, std::string(1, text_[pos_++]), line};
    if (c == '}' || c == ']') return {TokenKind::Close, std::string(1, text_[pos_++]), line};
    if (c == '"') {
      std::string s;
      ++pos_;
      while (pos_ < text_.size() && text_[pos_] != '"') {
        if (text_[pos_] == '\\' && pos_ + 1 < text_.size()) ++pos_;
        if (text_[pos_] == '\n') ++line_;
        s += text_[pos_++];
      }
      ++pos_;  // closing quote (or past the end: Coin reports the missing quote)
      return {TokenKind::String, s, line};
    }
    std::string w;
    while (pos_ < text_.size()) {
      const char d = text_[pos_];
      if (std::isspace(static_cast<unsigned char>(d)) || d == ',' || d == '#' || d == '"' || d == '{' || d == '}' ||
          d == '[' || d == ']')
        break;
      w += d;
      ++pos_;
    }
    return {TokenKind::Word, w, line};
  }

 private:
  const std::string& text_;
  std::size_t pos_ = 0;
  int line_ = 1;
};

struct Frame {
  char open = '{';
  std::string nodeType;  // the word before '{'
  std::string protoBody; // name of the PROTO whose body this brace opens
  int defId = -1;        // id of the DEF this node carries, -1 if none
  double weight = 1;     // nodes inside, USEd nodes counted once per USE
  int height = 1;        // nesting below and including this frame, USEd nodes expanded
  bool wantReference = false;  // File/Inline: the next value (after name/url, or first in [ ]) is a reference
};

bool isIncludeNode(const std::string& type) { return type == "File" || type == "Inline" || type == "WWWInline"; }

// The token walk of scanInventorText: one handler per token kind over the state below, so each stays short.
class TextScanner {
 public:
  explicit TextScanner(const std::string& text) : tok_(text) {}

  InventorScan run() {
    for (Token t = tok_.next(); t.kind != TokenKind::End && scan_.problem.empty();
         prev2_ = prev1_, prev1_ = t, t = tok_.next()) {
      switch (t.kind) {
        case TokenKind::Open: open(t); break;
        case TokenKind::Close: close(t); break;
        case TokenKind::String: takeReference(t); break;
        case TokenKind::Word: word(t); break;
        case TokenKind::End: break;
      }
    }
    if (!scan_.problem.empty()) return scan_;
    for (const Frame& f : frames_) topHeight_ = std::max(topHeight_, f.height);  // unclosed: Coin reports them
    scan_.maxDepth = std::max(scan_.maxDepth, topHeight_);
    checkProtoChains();
    return scan_;
  }

 private:
  void fail(const std::string& what, int line) {
    if (scan_.problem.empty()) {
      scan_.problem = what;
      scan_.problemLine = line;
    }
  }

  // Adds a closed frame or a USEd node to the frame around it (or to the top level).
  void addToParent(double weight, int height) {
    if (frames_.empty()) {
      topWeight_ += weight;
      topHeight_ = std::max(topHeight_, height);
    } else {
      frames_.back().weight += weight;
      frames_.back().height = std::max(frames_.back().height, 1 + height);
    }
  }

  // The value token right after an include node's name/url field (or first inside its [ ]) names a file.
  bool takeReference(const Token& t) {
    if (frames_.empty() || !frames_.back().wantReference) return false;
    frames_.back().wantReference = false;
    if (t.kind == TokenKind::Word && t.text == "IS") return true;  // a PROTO field: resolved when instantiated
    const int depth = static_cast<int>(frames_.size()) - (frames_.back().open == '[' ? 1 : 0);
    scan_.references.push_back({t.text, t.line, depth});
    return true;
  }

  void open(const Token& t) {
    Frame f;
    f.open = t.text[0];
    if (f.open == '{' && prev1_.kind == TokenKind::Word) f.nodeType = prev1_.text;
    if (f.open == '{' && !pendingDef_.empty() && prev2_.kind == TokenKind::Word && prev2_.text == pendingDef_) {
      f.defId = nextDefId_++;
      latestDef_[pendingDef_] = f.defId;
      openDefs_.insert(f.defId);
    }
    pendingDef_.clear();
    if (protoPhase_ == 1 && f.open == '[') {
      protoPhase_ = 2;
      protoInterfaceDepth_ = static_cast<int>(frames_.size()) + 1;
    } else if (protoPhase_ == 3 && f.open == '{') {
      f.protoBody = pendingProto_;
      f.nodeType.clear();
      protoPhase_ = 0;
    }
    for (std::size_t i = 0; i < frames_.size(); ++i) {
      if (frames_[i].protoBody.empty()) continue;
      if (f.open == '{' && !f.nodeType.empty()) protoUses_[frames_[i].protoBody].insert(f.nodeType);
      int& d = protoBodyDepth_[frames_[i].protoBody];
      d = std::max(d, static_cast<int>(frames_.size() - i));
    }
    f.wantReference = f.open == '[' && !frames_.empty() && frames_.back().wantReference;  // url [ "first" ... ]
    if (!frames_.empty()) frames_.back().wantReference = false;
    frames_.push_back(f);
    const int depth = static_cast<int>(frames_.size());
    if (depth > scan_.maxDepth) scan_.maxDepth = depth;
    if (depth > kMaxInventorNesting)
      fail("nesting deeper than " + std::to_string(kMaxInventorNesting) + " levels of { } and [ ]", t.line);
  }

  void close(const Token& t) {
    if (!frames_.empty()) {
      const Frame closed = frames_.back();
      frames_.pop_back();
      if (closed.defId >= 0) {
        openDefs_.erase(closed.defId);
        defSize_[closed.defId] = {closed.weight, closed.height};
      }
      addToParent(closed.weight, closed.height);
      if (topHeight_ > kMaxInventorNesting || (!frames_.empty() && frames_.back().height > kMaxInventorNesting))
        fail("nesting deeper than " + std::to_string(kMaxInventorNesting) +
                 " levels of { } and [ ] once USEd nodes are expanded",
             t.line);
    }
    if (protoPhase_ == 2 && static_cast<int>(frames_.size()) < protoInterfaceDepth_) protoPhase_ = 3;
  }

  void use(const Token& t) {
    const auto it = latestDef_.find(t.text);
    // Coin reads every file, included ones too, with its own table of names, so a USE can only
    // reach a DEF earlier in the same file (an included file cannot USE its includer's names; Coin
    // would drop the whole include).
    if (it == latestDef_.end())
      fail("USE " + t.text + " without an earlier DEF " + t.text +
               " in this file (names do not cross File/Inline includes)",
           t.line);
    else if (openDefs_.count(it->second))
      fail("USE " + t.text + " inside DEF " + t.text + " (the node would contain itself)", t.line);
    else if (it != latestDef_.end()) {
      const auto& [w, h] = defSize_[it->second];
      addToParent(w, h);
      if (topWeight_ > kMaxInventorExpandedNodes ||
          (!frames_.empty() && frames_.back().weight > kMaxInventorExpandedNodes))
        fail("DEF/USE expands to more than " + std::to_string(static_cast<long long>(kMaxInventorExpandedNodes)) +
                 " nodes",
             t.line);
    }
  }

  void word(const Token& t) {
    if (prev1_.kind == TokenKind::Word && prev1_.text == "DEF") pendingDef_ = t.text;
    if (prev1_.kind == TokenKind::Word && prev1_.text == "USE") use(t);
    if (prev1_.kind == TokenKind::Word && prev1_.text == "PROTO" && protoPhase_ == 0) {
      pendingProto_ = t.text;
      protoNames_.insert(t.text);
      protoPhase_ = 1;
    }
    if (t.text == "EXTERNPROTO") fail("EXTERNPROTO is not supported (it would load further files)", t.line);
    if (takeReference(t)) return;  // an unquoted file name: Coin reads it as the string
    if (!frames_.empty() && frames_.back().open == '{' && isIncludeNode(frames_.back().nodeType) &&
        (t.text == "name" || t.text == "url"))
      frames_.back().wantReference = true;
  }

  // A PROTO that instantiates itself, directly or through other PROTOs, expands for ever; a long chain of
  // PROTOs each instantiating the next nests as deep as the sum of their bodies. height(P) = P's body
  // nesting + the largest height of a PROTO it instantiates; the walk is bounded by kMaxProtoChain.
  void checkProtoChains() {
    constexpr std::size_t kMaxProtoChain = 64;
    std::map<std::string, int> height;  // of PROTOs fully explored
    std::set<std::string> onPath;
    std::vector<std::string> path;
    std::function<int(const std::string&)> heightOf = [&](const std::string& p) -> int {
      if (const auto h = height.find(p); h != height.end()) return h->second;
      if (onPath.count(p)) {
        std::string chain;
        for (auto it = std::find(path.begin(), path.end(), p); it != path.end(); ++it) chain += *it + " -> ";
        fail("recursive PROTO (" + chain + p + ")", 0);
        return 0;
      }
      if (path.size() >= kMaxProtoChain) {
        fail("PROTOs instantiate each other more than " + std::to_string(kMaxProtoChain) + " levels deep", 0);
        return 0;
      }
      onPath.insert(p);
      path.push_back(p);
      int below = 0;
      for (const auto& used : protoUses_[p]) {
        if (!protoNames_.count(used)) continue;
        below = std::max(below, heightOf(used));
        if (!scan_.problem.empty()) break;
      }
      path.pop_back();
      onPath.erase(p);
      return height[p] = protoBodyDepth_[p] + below;
    };
    for (const auto& p : protoNames_) {
      const int h = heightOf(p);
      if (!scan_.problem.empty()) break;
      if (scan_.maxDepth + h > kMaxInventorNesting) {
        fail("nesting deeper than " + std::to_string(kMaxInventorNesting) + " levels of { } and [ ], counting the "
             "bodies of the PROTOs instantiated (PROTO " + p + ")", 0);
        break;
      }
    }
  }

  InventorScan scan_;
  Tokenizer tok_;
  std::vector<Frame> frames_;
  std::map<std::string, int> latestDef_;  // DEF name -> id of its latest definition
  std::set<int> openDefs_;
  int nextDefId_ = 0;
  std::map<std::string, std::set<std::string>> protoUses_;  // PROTO name -> node types instantiated in its body
  std::set<std::string> protoNames_;
  std::map<std::string, int> protoBodyDepth_;  // PROTO name -> nesting inside its body
  std::map<int, std::pair<double, int>> defSize_;  // DEF id -> (weight, height) once closed
  double topWeight_ = 0;
  int topHeight_ = 0;
  Token prev2_, prev1_;         // the two tokens before the current one
  std::string pendingDef_;      // "DEF name" seen, waiting for its node's '{'
  std::string pendingProto_;    // "PROTO name" seen
  int protoPhase_ = 0;          // 1: expecting its interface '[', 2: in the interface, 3: expecting its body '{'
  int protoInterfaceDepth_ = 0;
};

}  // namespace

InventorScan scanInventorText(const std::string& text) { return TextScanner(text).run(); }

namespace {

namespace fs = std::filesystem;

struct Walker {
  const std::vector<std::string>& globalDirs;
  std::map<std::string, InventorScan> scans;  // by canonical path
  std::vector<std::string> stack;             // canonical paths of the files being read
  std::vector<std::string> stackDirs;         // their directories as Coin sees them
  std::size_t expansions = 0;
  std::size_t bytes = 0;

  const InventorScan& scanOf(const std::string& path, const std::string& canonical) {
    auto it = scans.find(canonical);
    if (it != scans.end()) {
      bytes += static_cast<std::size_t>(fs::file_size(path));
      return it->second;
    }
    const std::string text = readFileBytes(path);
    bytes += text.size();
    if (bytes > kMaxInventorIncludeBytes)
      throw Error("the file and its includes exceed " + std::to_string(kMaxInventorIncludeBytes >> 20) + " MB", path);
    if (text.size() >= 2 && static_cast<unsigned char>(text[0]) == 0x1f && static_cast<unsigned char>(text[1]) == 0x8b)
      throw Error("compressed (gzip) Open Inventor/VRML files are not supported; decompress it first", path);
    if (text.rfind("#Inventor", 0) == 0) {
      const auto eol = text.find('\n');
      if (text.substr(0, eol).find("binary") != std::string::npos)
        throw Error("binary Open Inventor files are not supported; convert it to ascii first", path);
    }
    return scans.emplace(canonical, scanInventorText(text)).first->second;
  }

  // The file Coin opens for `name` read from the file on top of the stack: the name as given (relative to
  // the working directory), then the directories of the files being read, innermost first, then Coin's
  // global directories; the first candidate that exists and is not a directory.
  std::optional<std::string> resolve(const std::string& name, std::vector<std::string>& tried) const {
    std::vector<std::string> candidates{name};
    if (!name.empty() && name[0] != '/') {
      for (auto d = stackDirs.rbegin(); d != stackDirs.rend(); ++d) candidates.push_back(*d + "/" + name);
      for (const auto& d : globalDirs) candidates.push_back(d + "/" + name);
    }
    for (const auto& c : candidates) {
      if (std::find(tried.begin(), tried.end(), c) != tried.end()) continue;  // Coin lists the top directory twice
      tried.push_back(c);
      struct stat st {};
      if (::stat(c.c_str(), &st) == 0 && !S_ISDIR(st.st_mode)) return c;
    }
    return std::nullopt;
  }

  void visit(const std::string& path, int depthAbove) {
    std::error_code ec;
    const std::string canonical = fs::weakly_canonical(path, ec).string();
    for (const auto& open : stack)
      if (open == canonical) throw Error("File/Inline includes form a cycle (back to " + path + ")", stack.back());
    const InventorScan& scan = scanOf(path, canonical);
    if (!scan.problem.empty()) throw Error(scan.problem, path, scan.problemLine);
    if (depthAbove + scan.maxDepth > kMaxInventorNesting)
      throw Error("nesting deeper than " + std::to_string(kMaxInventorNesting) +
                      " levels of { } and [ ], counting the files that include this one",
                  path);
    stack.push_back(canonical);
    const std::string dir = fs::path(path).parent_path().string();
    stackDirs.push_back(dir.empty() ? "." : dir);
    for (const auto& ref : scan.references) {
      if (++expansions > kMaxInventorIncludes)
        throw Error("more than " + std::to_string(kMaxInventorIncludes) + " File/Inline includes in all", path,
                    ref.line);
      if (ref.name.empty()) throw Error("File/Inline with an empty file name", path, ref.line);
      if (ref.name.find("://") != std::string::npos)
        throw Error("File/Inline names a URL ('" + ref.name + "'); only local files are read", path, ref.line);
      std::vector<std::string> tried;
      const auto found = resolve(ref.name, tried);
      if (!found) {
        std::string where;
        for (const auto& t : tried) where += (where.empty() ? "" : ", ") + t;
        throw Error("included file '" + ref.name + "' not found (tried " + where + ")", path, ref.line);
      }
      struct stat st {};
      if (::stat(found->c_str(), &st) != 0 || !S_ISREG(st.st_mode))
        throw Error("included file '" + *found + "' is not a regular file", path, ref.line);
      visit(*found, depthAbove + ref.depth);
    }
    stack.pop_back();
    stackDirs.pop_back();
  }
};

}  // namespace

void checkInventorImport(const std::string& path, const std::vector<std::string>& searchDirectories) {
  Walker w{searchDirectories, {}, {}, {}, 0, 0};
  w.visit(path, 0);
}

}  // namespace sg::meshio
