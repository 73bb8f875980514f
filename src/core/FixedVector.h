#pragma once
// A vector of at most N elements stored inline (no heap): for small per-item lists that are made by the
// hundred in hot loops, e.g. the ≤ 8 vertices of a hydroelastic contact polygon (src/geometry/hydro/README.md
// §Output). The vector-like subset the project uses; growing past N throws std::length_error.
// Why not a library: Boost.Container's static_vector is the same thing, but Boost is not a dependency of the
// project, and std::inplace_vector is C++26.
#include <algorithm>
#include <cstddef>
#include <initializer_list>
#include <stdexcept>

namespace sg {

template <class T, std::size_t N>
class FixedVector {
 public:
  using value_type = T;
  using size_type = std::size_t;
  using iterator = T*;
  using const_iterator = const T*;

  FixedVector() = default;
  // Copies only the elements in use (the rest of the storage is uninitialised).
  FixedVector(const FixedVector& o) : size_(o.size_) { std::copy(o.begin(), o.end(), data_); }
  FixedVector& operator=(const FixedVector& o) {
    if (this == &o) return *this;
    size_ = o.size_;
    std::copy(o.begin(), o.end(), data_);
    return *this;
  }
  FixedVector(std::initializer_list<T> values) { assign(values.begin(), values.end()); }
  template <class It>
  FixedVector(It first, It last) {
    assign(first, last);
  }

  static constexpr size_type capacity() { return N; }
  size_type size() const { return size_; }
  bool empty() const { return size_ == 0; }

  T& operator[](size_type i) { return data_[i]; }
  const T& operator[](size_type i) const { return data_[i]; }
  T* data() { return data_; }
  const T* data() const { return data_; }
  T* begin() { return data_; }
  T* end() { return data_ + size_; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }
  T& front() { return data_[0]; }
  const T& front() const { return data_[0]; }
  T& back() { return data_[size_ - 1]; }
  const T& back() const { return data_[size_ - 1]; }

  void clear() { size_ = 0; }
  void push_back(const T& value) {
    if (size_ == N) throw std::length_error("FixedVector: capacity exceeded");
    data_[size_++] = value;
  }
  // New elements are copies of `value` (T(): zero for numbers, uninitialised for Eigen vectors, as std::vector).
  void resize(size_type n, const T& value = T()) {
    if (n > N) throw std::length_error("FixedVector: capacity exceeded");
    for (size_type i = size_; i < n; ++i) data_[i] = value;
    size_ = n;
  }
  template <class It>
  void assign(It first, It last) {
    size_ = 0;
    for (; first != last; ++first) push_back(*first);
  }

  friend bool operator==(const FixedVector& a, const FixedVector& b) {
    return a.size_ == b.size_ && std::equal(a.begin(), a.end(), b.begin());
  }

 private:
  T data_[N];  // only the first size_ are meaningful
  size_type size_ = 0;
};

}  // namespace sg
