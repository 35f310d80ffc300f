/*
 * cxx_work: the C++ test program of tests/integration/import_oracle.sh
 * (part f), for symbol names: perfdb must name frames as perf does,
 * demangled without parameters. It spends CPU time in a member function of
 * a class template (two instances), two overloads of one function and a
 * function-call operator, all in a namespace, called through std::function
 * so libstdc++ frames are on the stacks too.
 *
 *   c++ -O0 -g -fno-omit-frame-pointer -o cxxwork cxx_work.cc
 *
 * Usage: cxxwork [--seconds S] (default 0.3, of CPU time). Prints
 * "sum=N" on stdout. Exit 0, or 1 on a usage error.
 */
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <functional>

namespace work {

template <typename T> struct Box {
	T v;
	T spin(long n)
	{
		volatile T x = 0;
		for (long i = 0; i < n; i++)
			x = x + (T)i;
		return x;
	}
};

long over(long n)
{
	volatile long x = 0;
	for (long i = 0; i < n; i++)
		x = x + i;
	return x;
}

double over(double n)
{
	volatile double x = 0;
	for (long i = 0; i < (long)n; i++)
		x = x + (double)i;
	return x;
}

struct Step {
	long k;
	long operator()(long n) const
	{
		volatile long x = 0;
		for (long i = 0; i < n; i++)
			x = x + i * k;
		return x;
	}
};

} // namespace work

static double cpu_seconds()
{
	timespec t;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	double seconds = 0.3;
	if (argc == 3 && !strcmp(argv[1], "--seconds"))
		seconds = atof(argv[2]);
	else if (argc != 1) {
		fprintf(stderr, "usage: cxxwork [--seconds S]\n");
		return 1;
	}
	work::Box<int> bi{0};
	work::Box<long> bl{0};
	std::function<long(long)> step = work::Step{3};
	long sum = 0;
	const long n = 200000;
	for (double t0 = cpu_seconds(); cpu_seconds() - t0 < seconds;) {
		sum += bi.spin(n) + bl.spin(n) + work::over(n) + (long)work::over((double)n);
		sum += step(n);
	}
	printf("sum=%ld\n", sum);
	return 0;
}
