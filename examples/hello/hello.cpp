// hello.cpp: a greeting printer built the long way round.
//
// A small framework of glyph sources, transforms and sinks assembles the
// classic greeting one piece at a time. Every layer is deliberately more
// general than it needs to be; the reducer's job is to see through it.

#include <cstdio>
#include <cstring>
#include <cstddef>

namespace greet {

// ---------------------------------------------------------------- limits
enum : std::size_t { kMaxGlyphs = 64, kMaxStages = 8, kMaxSinks = 4 };

// ---------------------------------------------------------------- buffer
template <std::size_t N>
class FixedText {
public:
    FixedText() : len_(0) { data_[0] = '\0'; }
    bool push(char c) {
        if (len_ + 1 >= N) return false;
        data_[len_++] = c;
        data_[len_] = '\0';
        return true;
    }
    bool append(const char* s) {
        for (; *s; ++s)
            if (!push(*s)) return false;
        return true;
    }
    const char* c_str() const { return data_; }
    std::size_t size() const { return len_; }
    void clear() { len_ = 0; data_[0] = '\0'; }
private:
    char data_[N];
    std::size_t len_;
};

using Text = FixedText<kMaxGlyphs>;

// ---------------------------------------------------------------- sources
struct Source {
    virtual ~Source() {}
    virtual const char* name() const = 0;
    virtual void emit(Text& out) const = 0;
};

struct Word : Source {
    explicit Word(const char* w) : word(w) {}
    const char* name() const override { return "word"; }
    void emit(Text& out) const override { out.append(word); }
    const char* word;
};

struct Punct : Source {
    explicit Punct(char c) : mark(c) {}
    const char* name() const override { return "punct"; }
    void emit(Text& out) const override { out.push(mark); }
    char mark;
};

struct Space : Source {
    const char* name() const override { return "space"; }
    void emit(Text& out) const override { out.push(' '); }
};

// ---------------------------------------------------------------- stages
typedef void (*Stage)(Text&);

static void identity(Text&) {}

static void capitalise_first(Text& t) {
    Text copy;
    const char* s = t.c_str();
    for (std::size_t i = 0; s[i]; ++i) {
        char c = s[i];
        if (i == 0 && c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
        copy.push(c);
    }
    t = copy;
}

static void trim_right(Text& t) {
    Text copy;
    const char* s = t.c_str();
    std::size_t n = std::strlen(s);
    while (n > 0 && s[n - 1] == ' ') --n;
    for (std::size_t i = 0; i < n; ++i) copy.push(s[i]);
    t = copy;
}

class Pipeline {
public:
    Pipeline() : count_(0) {}
    Pipeline& then(Stage s) {
        if (count_ < kMaxStages) stages_[count_++] = s;
        return *this;
    }
    void run(Text& t) const {
        for (std::size_t i = 0; i < count_; ++i) stages_[i](t);
    }
private:
    Stage stages_[kMaxStages];
    std::size_t count_;
};

// ---------------------------------------------------------------- sinks
struct Sink {
    virtual ~Sink() {}
    virtual void write(const Text& t) = 0;
};

struct StdoutSink : Sink {
    void write(const Text& t) override { std::printf("%s\n", t.c_str()); }
};

struct CountingSink : Sink {
    CountingSink() : bytes(0) {}
    void write(const Text& t) override { bytes += t.size(); }
    std::size_t bytes;
};

class Fanout {
public:
    Fanout() : count_(0) {}
    void add(Sink* s) {
        if (count_ < kMaxSinks) sinks_[count_++] = s;
    }
    void write(const Text& t) {
        for (std::size_t i = 0; i < count_; ++i) sinks_[i]->write(t);
    }
private:
    Sink* sinks_[kMaxSinks];
    std::size_t count_;
};

// ---------------------------------------------------------------- composer
class Composer {
public:
    Composer() : count_(0) {}
    Composer& add(const Source* s) {
        if (count_ < kMaxGlyphs) parts_[count_++] = s;
        return *this;
    }
    Text compose() const {
        Text t;
        for (std::size_t i = 0; i < count_; ++i) parts_[i]->emit(t);
        return t;
    }
private:
    const Source* parts_[kMaxGlyphs];
    std::size_t count_;
};

}  // namespace greet

int main() {
    using namespace greet;
    Word hello("hello");
    Punct comma(',');
    Space space;
    Word world("world");
    Punct bang('!');

    Composer composer;
    composer.add(&hello).add(&comma).add(&space).add(&world).add(&bang);

    Pipeline pipeline;
    pipeline.then(identity).then(capitalise_first).then(trim_right);

    Text text = composer.compose();
    pipeline.run(text);

    StdoutSink out;
    CountingSink counter;
    Fanout fanout;
    fanout.add(&out);
    fanout.add(&counter);
    fanout.write(text);
    return counter.bytes == text.size() ? 0 : 1;
}
