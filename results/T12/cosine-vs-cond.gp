# cosine-vs-cond.gp - written by akm from the CSV files in this folder.
# Re-render cosine-vs-cond.png and cosine-vs-cond.svg from inside this folder:  gnuplot cosine-vs-cond.gp
set datafile separator ','
set datafile missing NaN
set title 'T12 descent preserved: cos(M*, Ĝ) over 200 random Σ̂'
set xlabel 'cond(Σ̂) on its range (λ̂_{max}/λ̂_{min}^+)'
set ylabel 'cos(M*, Ĝ)'
set logscale x
set grid
set key outside top left horizontal
set yrange [0:1.05]
set format x '10^{%T}'
set terminal pngcairo size 900,600 enhanced font ',11'
set output 'cosine-vs-cond.png'
plot 'data_instances.csv' every ::1 using 9:(strcol(14) eq 'full-rank' ? $11 : NaN) with points pt 7 ps 0.8 title 'full rank', \
     'data_instances.csv' every ::1 using 9:(strcol(14) eq 'rank-deficient' ? $11 : NaN) with points pt 7 ps 0.8 title 'rank deficient', \
     'data_instances.csv' every ::1 using 9:12 with points pt 7 ps 0.8 title 'Kantorovich floor of that instance'
set terminal svg size 900,600 dynamic enhanced
set output 'cosine-vs-cond.svg'
replot
unset output
