// ledger.cpp - a small double-entry ledger: accounts, postings, a journal that
// balances each transaction, and a trial balance report. Written for the
// cpp-ledger corpus case; preprocessed with its libstdc++ headers by generate.sh.
#include <algorithm>
#include <iostream>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace ledger {

enum class Side { Debit, Credit };

struct Posting {
    std::string account;
    Side side;
    long cents;
};

struct Transaction {
    std::string memo;
    std::vector<Posting> postings;

    long total(Side side) const {
        long sum = 0;
        for (const Posting &p : postings)
            if (p.side == side)
                sum += p.cents;
        return sum;
    }
    bool balanced() const { return total(Side::Debit) == total(Side::Credit); }
};

class Journal {
public:
    bool record(Transaction tx) {
        if (tx.postings.empty() || !tx.balanced())
            return false;
        entries_.push_back(std::make_unique<Transaction>(std::move(tx)));
        return true;
    }

    std::map<std::string, long> balances() const {
        std::map<std::string, long> out;
        for (const auto &tx : entries_)
            for (const Posting &p : tx->postings)
                out[p.account] += p.side == Side::Debit ? p.cents : -p.cents;
        return out;
    }

    std::size_t size() const { return entries_.size(); }

private:
    std::vector<std::unique_ptr<Transaction>> entries_;
};

Transaction transfer(const std::string &from, const std::string &to, long cents,
                     std::string memo) {
    Transaction tx;
    tx.memo = std::move(memo);
    tx.postings.push_back({to, Side::Debit, cents});
    tx.postings.push_back({from, Side::Credit, cents});
    return std::move(tx);
}

std::string format_cents(long cents) {
    std::string sign = cents < 0 ? "-" : "";
    long abs_cents = cents < 0 ? -cents : cents;
    std::string frac = std::to_string(abs_cents % 100);
    if (frac.size() < 2)
        frac.insert(frac.begin(), '0');
    return sign + std::to_string(abs_cents / 100) + "." + frac;
}

} // namespace ledger

int main() {
    using namespace ledger;
    Journal journal;
    journal.record(transfer("equity", "cash", 500000, "opening balance"));
    journal.record(transfer("cash", "rent", 120000, "march rent"));
    journal.record(transfer("cash", "supplies", 8950, "paper and toner"));
    journal.record(transfer("revenue", "cash", 310000, "invoice 1042"));
    std::vector<std::pair<std::string, long>> rows;
    for (const auto &kv : journal.balances())
        rows.push_back(kv);
    std::sort(rows.begin(), rows.end(),
              [](const auto &a, const auto &b) { return a.second > b.second; });
    for (const auto &row : rows)
        std::cout << row.first << ' ' << format_cents(row.second) << '\n';
    std::cout << journal.size() << " transactions\n";
    return 0;
}
