# eta-sweep-ak-sgd.gp - written by akm from the CSV files in this folder.
# Re-render eta-sweep-ak-sgd.png and eta-sweep-ak-sgd.svg from inside this folder:  gnuplot eta-sweep-ak-sgd.gp
set datafile separator ','
set datafile missing NaN
set title 'T19 final held-out loss vs η (ak-sgd, β = 0.99, own tuned lr; mean ± sd over seeds)'
set xlabel 'η'
set ylabel 'final held-out loss'
set logscale x
set logscale y
set grid
set key outside top left horizontal
set arrow from 0.1, graph 0 to 0.1, graph 1 nohead dt 2 lc rgb 'gray40'
set terminal pngcairo size 900,600 enhanced font ',11'
set output 'eta-sweep-ak-sgd.png'
plot 'data_eta.csv' every ::1 using 4:(strcol(1) eq 'linear/ak-sgd' ? $6 : NaN):7 with yerrorbars pt 7 ps 0.8 title 'linear', \
     'data_eta.csv' every ::1 using 4:(strcol(1) eq 'logistic/ak-sgd' ? $6 : NaN):7 with yerrorbars pt 7 ps 0.8 title 'logistic', \
     'data_eta.csv' every ::1 using 4:(strcol(1) eq 'teacher/ak-sgd' ? $6 : NaN):7 with yerrorbars pt 7 ps 0.8 title 'teacher'
set terminal svg size 900,600 dynamic enhanced
set output 'eta-sweep-ak-sgd.svg'
replot
unset output
