# variance-vs-N.gp - written by akm from the CSV files in this folder.
# Re-render variance-vs-N.png and variance-vs-N.svg from inside this folder:  gnuplot variance-vs-N.gp
set datafile separator ','
set datafile missing NaN
set title 'T15 stationary variance of the deployed rule: fitted slope -1.011 ± 0.003 (theory −1)'
set xlabel 'batch size N'
set ylabel 'E||M_T − E M_T||_F^2'
set logscale x
set logscale y
set grid
set key outside top left horizontal
set terminal pngcairo size 900,600 enhanced font ',11'
set output 'variance-vs-N.png'
plot 'data_variance.csv' every ::1 using 1:2:3 with yerrorbars pt 7 ps 0.8 title 'measured', \
     exp(2.8469018072716072)*x**(-1) title '∝ 1/N (through the fitted intercept at slope −1)' lw 2
set terminal svg size 900,600 dynamic enhanced
set output 'variance-vs-N.svg'
replot
unset output
